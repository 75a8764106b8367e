// CPinholeVips, stopping a decode: see include/CPinholeVipsInterrupt.h.
#include "CPinholeVipsInterrupt.h"
#include "MemorySource.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct CPinholeVips_Interrupt {
    atomic_int cancelled;
    atomic_int reason;
    atomic_long ticks;
    // The decoding thread's CPU clock and the reading of it at which the decode must stop (INT64_MAX: never).
    // Written once by CPinholeVips_interrupt_start_limit, before any check that uses them.
    clockid_t clock;
    atomic_llong limit_us;
};

static int64_t cpu_microseconds(clockid_t clock) {
    struct timespec now;
    if (clock_gettime(clock, &now) != 0) {
        return 0;
    }
    return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

CPinholeVips_Interrupt *CPinholeVips_interrupt_new(void) {
    CPinholeVips_Interrupt *interrupt = malloc(sizeof *interrupt);
    if (interrupt == NULL) {
        return NULL;
    }
    atomic_init(&interrupt->cancelled, 0);
    atomic_init(&interrupt->reason, CPinholeVips_running);
    atomic_init(&interrupt->ticks, 0);
    interrupt->clock = CLOCK_THREAD_CPUTIME_ID;
    atomic_init(&interrupt->limit_us, INT64_MAX);
    return interrupt;
}

void CPinholeVips_interrupt_start_limit(CPinholeVips_Interrupt *interrupt, int64_t limit_us) {
    if (limit_us <= 0 || pthread_getcpuclockid(pthread_self(), &interrupt->clock) != 0) {
        return;
    }
    int64_t start = cpu_microseconds(interrupt->clock);
    atomic_store(&interrupt->limit_us, limit_us > INT64_MAX - start ? INT64_MAX : start + limit_us);
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
    int64_t limit = atomic_load(&interrupt->limit_us);
    if (atomic_load(&interrupt->cancelled)) {
        reason = CPinholeVips_cancelled;
    } else if (limit != INT64_MAX && cpu_microseconds(interrupt->clock) >= limit) {
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

/// Lines per strip: small enough to check often, large enough that a strip costs more than its bookkeeping.
#define STRIP_LINES 16

int CPinholeVips_copy_pixels_interruptible(VipsImage *image, unsigned char *dst, size_t len,
                                           CPinholeVips_Interrupt *interrupt) {
    size_t line = VIPS_IMAGE_SIZEOF_LINE(image);
    if (dst != NULL && line * (size_t)image->Ysize != len) {
        vips_error("CPinholeVips", "pixel buffer has %zu bytes, image needs %zu", len, line * (size_t)image->Ysize);
        return -1;
    }
    if (vips_image_pio_input(image)) {
        return -1;
    }
    VipsRegion *region = vips_region_new(image);
    if (region == NULL) {
        return -1;
    }
    int status = 0;
    for (int top = 0; top < image->Ysize && status == 0; top += STRIP_LINES) {
        if (interrupt != NULL && CPinholeVips_interrupt_check(interrupt) != CPinholeVips_running) {
            vips_error("CPinholeVips", "%s", "decode stopped");
            status = -1;
            break;
        }
        VipsRect strip = {0, top, image->Xsize, VIPS_MIN(STRIP_LINES, image->Ysize - top)};
        if (vips_region_prepare(region, &strip)) {
            status = -1;
            break;
        }
        for (int y = 0; dst != NULL && y < strip.height; y++) {
            memcpy(dst + (size_t)(top + y) * line, VIPS_REGION_ADDR(region, 0, top + y), line);
        }
        if (interrupt != NULL) {
            CPinholeVips_interrupt_count_progress(interrupt);
        }
    }
    g_object_unref(region);
    return status;
}

int CPinholeVips_thumbnail_interruptible(const void *buf, size_t len, int jpeg_shrink, int width, int height,
                                         int size, int no_rotate, const char *import_profile,
                                         const char *export_profile, const char *option_string,
                                         CPinholeVips_Interrupt *interrupt, VipsImage **out) {
    VipsSource *source = CPinholeVips_memory_source_new(buf, len, interrupt, 0);
    // Either way the loader holds its own reference to `source` for as long as the image needs the bytes.
    if (jpeg_shrink <= 1) {
        int status = vips_thumbnail_source(source, out, width,
                                           "height", height,
                                           "size", (VipsSize)size,
                                           "no_rotate", no_rotate ? TRUE : FALSE,
                                           "import_profile", import_profile,
                                           "export_profile", export_profile,
                                           "option_string", option_string,
                                           NULL);
        g_object_unref(source);
        return status;
    }
    // option_string carries the loader's fail_on, as vips_thumbnail_source passes it on.
    VipsImage *loaded = vips_image_new_from_source(source, option_string ? option_string : "",
                                                   "shrink", jpeg_shrink, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    g_object_unref(source);
    if (loaded == NULL) {
        return -1;
    }
    int status = vips_thumbnail_image(loaded, out, width,
                                      "height", height,
                                      "size", (VipsSize)size,
                                      "no_rotate", no_rotate ? TRUE : FALSE,
                                      "import_profile", import_profile,
                                      "export_profile", export_profile,
                                      NULL);
    g_object_unref(loaded);
    return status;
}
