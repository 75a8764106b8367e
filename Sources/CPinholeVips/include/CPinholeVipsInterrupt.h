// CPinholeVips, stopping a decode: cancellation and a limit on the CPU time one decode may use.
//
// Why it exists: libvips evaluates an image lazily, on worker threads of its own, and checks an image's kill flag
// only once per output tile (a 256-pixel thumbnail of a 256-megapixel PNG has about four tiles). Here the pixels
// are computed instead on the calling thread, strip by strip (vips_region_prepare), checking the interrupt before
// each strip; and the input is read through a source of our own (CPinholeVips_thumbnail_interruptible) whose
// reads fail once the interrupt says stop, so a loader that streams its input stops within a few KiB. Because the
// work runs on the decoding thread, that thread's CPU clock (pthread_getcpuclockid) measures the decode's own
// CPU time, whatever else the machine runs: the time limit is in CPU time, so a busy machine never stops a good
// decode.
//
// The interrupt is a small heap object shared by the thread that decodes and the thread that cancels: its state
// is C11 atomics. Swift cannot take the address of its own atomics for C, hence the opaque object here.
#ifndef CPINHOLEVIPS_INTERRUPT_H
#define CPINHOLEVIPS_INTERRUPT_H

#include <stdint.h>
#include <vips/vips.h>

/// Why a decode must stop: still running, cancelled by its caller, or past its CPU time limit.
enum {
    CPinholeVips_running = 0,
    CPinholeVips_cancelled = 1,
    CPinholeVips_timed_out = 2,
};

typedef struct CPinholeVips_Interrupt CPinholeVips_Interrupt;

/// A new interrupt, not cancelled and without a time limit. NULL when out of memory. Free it with
/// CPinholeVips_interrupt_free.
CPinholeVips_Interrupt *CPinholeVips_interrupt_new(void);

/// Starts the time limit: the decode may use `limit_us` microseconds more of the calling thread's CPU time (call
/// on the decoding thread, as its work begins); no limit when `limit_us` <= 0.
void CPinholeVips_interrupt_start_limit(CPinholeVips_Interrupt *interrupt, int64_t limit_us);

void CPinholeVips_interrupt_free(CPinholeVips_Interrupt *interrupt);

/// Asks the decode to stop (any thread, any number of times).
void CPinholeVips_interrupt_cancel(CPinholeVips_Interrupt *interrupt);

/// CPinholeVips_running, or why the decode must stop (the first reason seen sticks). Reads the decoding thread's
/// CPU clock; any thread may call it.
int CPinholeVips_interrupt_check(CPinholeVips_Interrupt *interrupt);

/// Units of progress seen so far: strips computed and reads of the input (a measure of progress that does not
/// depend on the machine's speed).
long CPinholeVips_interrupt_ticks(CPinholeVips_Interrupt *interrupt);

/// Computes `image` on the calling thread, strip by strip from the top, into `dst` (`len` must be width × height
/// × bands × bytes per sample; packed rows), or computes and discards it when `dst` is NULL. Checks `interrupt`
/// (may be NULL) before each strip: returns -1 once it says stop (see CPinholeVips_interrupt_check for why).
int CPinholeVips_copy_pixels_interruptible(VipsImage *image, unsigned char *dst, size_t len,
                                           CPinholeVips_Interrupt *interrupt);

/// CPinholeVips_thumbnail (same arguments), reading `buf` through a source of our own whose reads fail once
/// `interrupt` (may be NULL) says stop, so that a loader that streams its input (JPEG, PNG, TIFF) stops at its next
/// read of a few KiB. Uses the format's source loader (vips_thumbnail_source): call it only for data whose buffer
/// loader is jpegload_buffer, pngload_buffer or tiffload_buffer. `buf` must outlive `*out`; so must `interrupt`.
///
/// `jpeg_shrink` above 1 (JPEG data only) chooses the shrink-on-load: `buf` is loaded at that DCT scale (2, 4 or 8;
/// libvips rounds each side down, dropping the last partial block) and vips_thumbnail_image finishes, so the import
/// of a profile (CMYK, Adobe RGB) works on the shrunk pixels. 1 leaves the choice to vips_thumbnail_source, which
/// keeps at least 2x for its own resize (libvips `thumbnail.c`, `vips_thumbnail_find_jpegshrink`).
int CPinholeVips_thumbnail_interruptible(const void *buf, size_t len, int jpeg_shrink, int width, int height,
                                         int size, int no_rotate, const char *import_profile,
                                         const char *export_profile, const char *option_string,
                                         CPinholeVips_Interrupt *interrupt, VipsImage **out);

#endif
