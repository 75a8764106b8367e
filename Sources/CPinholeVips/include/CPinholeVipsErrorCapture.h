// CPinholeVipsErrorCapture: libvips' errors kept per thread while a capture is open (libvips 8.14's error buffer
// is process-global; see CPinholeVipsErrorCapture.c for the fault and how libvips' calls reach the wrappers).
#ifndef CPINHOLEVIPSERRORCAPTURE_H
#define CPINHOLEVIPSERRORCAPTURE_H

#include <stddef.h>

/// Copies the errors libvips raised on the calling thread since its capture opened into `buf` (NUL-terminated)
/// and clears them. When there are none and `own_thread_only` is 0, or no capture is open, copies libvips' global
/// buffer instead (and clears it), which holds the errors of libvips' worker threads: the words of a failed pixel
/// step, and possibly another decode's.
void CPinholeVips_take_error(char *buf, size_t len, int own_thread_only);

/// 1 when libvips' calls to its error functions reach this shim's wrappers, else 0 (then every error goes to
/// libvips' global buffer, as without the shim). Thread-safe.
int CPinholeVips_error_capture_installed(void);

/// 1 while CPinholeVips_capture_begin has a capture open on the calling thread (CPinholeVips.c).
int CPinholeVips_capture_is_open(void);

/// Forgets the errors kept for the calling thread (CPinholeVips_capture_begin calls it when a capture opens).
void CPinholeVips_errors_reset(void);

#endif
