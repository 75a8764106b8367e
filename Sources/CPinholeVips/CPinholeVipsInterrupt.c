// CPinholeVips, stopping a decode: see include/CPinholeVipsInterrupt.h.
#include "CPinholeVipsInterrupt.h"
#include "MemorySource.h"

#include <stdatomic.h>
#include <stdlib.h>

struct CPinholeVips_Interrupt {
    atomic_int cancelled;
    atomic_int reason;
    atomic_llong deadline_us;  // g_get_monotonic_time() value; INT64_MAX for none
    atomic_long ticks;
};

CPinholeVips_Interrupt *CPinholeVips_interrupt_new(void) {
    CPinholeVips_Interrupt *interrupt = malloc(sizeof *interrupt);
    if (interrupt == NULL) {
        return NULL;
    }
    atomic_init(&interrupt->cancelled, 0);
    atomic_init(&interrupt->reason, CPinholeVips_running);
    atomic_init(&interrupt->deadline_us, INT64_MAX);
    atomic_init(&interrupt->ticks, 0);
    return interrupt;
}

void CPinholeVips_interrupt_start_deadline(CPinholeVips_Interrupt *interrupt, int64_t timeout_us) {
    atomic_store(&interrupt->deadline_us, timeout_us > 0 ? g_get_monotonic_time() + timeout_us : INT64_MAX);
}

void CPinholeVips_interrupt_free(CPinholeVips_Interrupt *interrupt) { free(interrupt); }

void CPinholeVips_interrupt_cancel(CPinholeVips_Interrupt *interrupt) {
    atomic_store(&interrupt->cancelled, 1);
}

int CPinholeVips_interrupt_check(CPinholeVips_Interrupt *interrupt) {
    int reason = atomic_load(&interrupt->reason);
    if (reason != CPinholeVips_running) {
        return reason;
    }
    if (atomic_load(&interrupt->cancelled)) {
        reason = CPinholeVips_cancelled;
    } else if (g_get_monotonic_time() >= atomic_load(&interrupt->deadline_us)) {
        reason = CPinholeVips_timed_out;
    } else {
        return CPinholeVips_running;
    }
    int expected = CPinholeVips_running;
    atomic_compare_exchange_strong(&interrupt->reason, &expected, reason);
    return atomic_load(&interrupt->reason);
}

long CPinholeVips_interrupt_ticks(CPinholeVips_Interrupt *interrupt) { return atomic_load(&interrupt->ticks); }

void CPinholeVips_interrupt_count_progress(CPinholeVips_Interrupt *interrupt) {
    atomic_fetch_add(&interrupt->ticks, 1);
}

/// libvips' "eval" signal: emitted after each tile by the thread that runs the evaluation loop, which checks the
/// kill flag right after it (vips_sink_base_progress).
static void on_eval(VipsImage *image, VipsProgress *progress, CPinholeVips_Interrupt *interrupt) {
    (void)progress;
    CPinholeVips_interrupt_count_progress(interrupt);
    if (CPinholeVips_interrupt_check(interrupt) != CPinholeVips_running) {
        vips_image_set_kill(image, TRUE);
    }
}

void CPinholeVips_interrupt_watch(CPinholeVips_Interrupt *interrupt, VipsImage *image) {
    if (interrupt == NULL) {
        return;
    }
    vips_image_set_progress(image, TRUE);
    g_signal_connect(image, "eval", G_CALLBACK(on_eval), interrupt);
}

int CPinholeVips_copy_pixels_interruptible(VipsImage *image, unsigned char *dst, size_t len,
                                           CPinholeVips_Interrupt *interrupt) {
    size_t needed = VIPS_IMAGE_SIZEOF_LINE(image) * (size_t)image->Ysize;
    if (needed != len) {
        vips_error("CPinholeVips", "pixel buffer has %zu bytes, image needs %zu", len, needed);
        return -1;
    }
    VipsImage *target = vips_image_new_from_memory(dst, len, image->Xsize, image->Ysize, image->Bands,
                                                   image->BandFmt);
    if (target == NULL) {
        return -1;
    }
    CPinholeVips_interrupt_watch(interrupt, target);
    int status = vips_image_write(image, target);
    g_object_unref(target);
    return status;
}

int CPinholeVips_thumbnail_interruptible(const void *buf, size_t len, int width, int height, int size,
                                         int no_rotate, const char *import_profile, const char *export_profile,
                                         const char *option_string, CPinholeVips_Interrupt *interrupt,
                                         VipsImage **out) {
    VipsSource *source = CPinholeVips_memory_source_new(buf, len, interrupt, 0);
    int status = vips_thumbnail_source(source, out, width,
                                       "height", height,
                                       "size", (VipsSize)size,
                                       "no_rotate", no_rotate ? TRUE : FALSE,
                                       "import_profile", import_profile,
                                       "export_profile", export_profile,
                                       "option_string", option_string,
                                       NULL);
    g_object_unref(source);  // the loader holds its own reference for as long as `*out` needs the bytes
    return status;
}
