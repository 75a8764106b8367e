// CPinholeVips, stopping a decode: libvips evaluates an image lazily, in tiles, and checks the image's kill
// flag after each tile (vips_image_iskilled). These wrappers set that flag from libvips' own "eval" callback, on
// the thread that evaluates, when the caller cancelled or a deadline passed: libvips then stops at the next tile
// and the write fails. The flag is never written from another thread, so there is no data race on it.
//
// The interrupt is a small heap object shared by the thread that decodes and the thread that cancels: its state
// is C11 atomics. Swift cannot take the address of its own atomics for C, hence the opaque object here.
#ifndef CPINHOLEVIPS_INTERRUPT_H
#define CPINHOLEVIPS_INTERRUPT_H

#include <stdint.h>
#include <vips/vips.h>

/// Why a decode must stop: still running, cancelled by its caller, or past its deadline.
enum {
    CPinholeVips_running = 0,
    CPinholeVips_cancelled = 1,
    CPinholeVips_timed_out = 2,
};

typedef struct CPinholeVips_Interrupt CPinholeVips_Interrupt;

/// A new interrupt, not cancelled and without a deadline. NULL when out of memory. Free it with
/// CPinholeVips_interrupt_free.
CPinholeVips_Interrupt *CPinholeVips_interrupt_new(void);

/// Sets the deadline to `timeout_us` microseconds from now (monotonic clock); none when `timeout_us` <= 0.
void CPinholeVips_interrupt_start_deadline(CPinholeVips_Interrupt *interrupt, int64_t timeout_us);

void CPinholeVips_interrupt_free(CPinholeVips_Interrupt *interrupt);

/// Asks the decode to stop (any thread, any number of times).
void CPinholeVips_interrupt_cancel(CPinholeVips_Interrupt *interrupt);

/// CPinholeVips_running, or why the decode must stop (the first reason seen sticks). Reads the clock.
int CPinholeVips_interrupt_check(CPinholeVips_Interrupt *interrupt);

/// Units of progress seen so far: tiles libvips reported done on the images this interrupt watches, and reads
/// from its sources (a measure of progress that does not depend on the machine's speed).
long CPinholeVips_interrupt_ticks(CPinholeVips_Interrupt *interrupt);

/// Makes libvips report progress on `image` and stop evaluating it (kill flag) at the first tick after
/// `interrupt` says stop. Call before `image` is evaluated; `interrupt` must outlive the evaluation. NULL
/// `interrupt` does nothing.
void CPinholeVips_interrupt_watch(CPinholeVips_Interrupt *interrupt, VipsImage *image);

/// CPinholeVips_copy_pixels that stops when `interrupt` says so (returns -1; see CPinholeVips_interrupt_check
/// for why). NULL `interrupt` never stops.
int CPinholeVips_copy_pixels_interruptible(VipsImage *image, unsigned char *dst, size_t len,
                                           CPinholeVips_Interrupt *interrupt);

/// CPinholeVips_thumbnail (same arguments), reading `buf` through a source of our own whose reads fail once
/// `interrupt` says stop: a loader that streams its input (JPEG, PNG, TIFF) then stops at its next read of a few
/// KiB, where the kill flag is seen only once per output tile (a 256-pixel thumbnail has about four). Uses the
/// format's source loader (vips_thumbnail_source): call it only for data whose buffer loader is jpegload_buffer,
/// pngload_buffer or tiffload_buffer. `buf` must outlive `*out`; so must `interrupt`.
int CPinholeVips_thumbnail_interruptible(const void *buf, size_t len, int width, int height, int size,
                                         int no_rotate, const char *import_profile, const char *export_profile,
                                         const char *option_string, CPinholeVips_Interrupt *interrupt,
                                         VipsImage **out);

#endif
