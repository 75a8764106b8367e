// CPinholeVips, evidence of truncation: see include/CPinholeVipsEvidence.h.
#include "CPinholeVipsEvidence.h"

#include <string.h>

/// The bytes behind the custom source, and what the loader asked of them.
typedef struct {
    const char *data;
    gint64 length;
    gint64 position;
    int exact_reads;
    int past_end;
} EvidenceSource;

static gint64 on_read(VipsSourceCustom *custom, void *buffer, gint64 length, EvidenceSource *source) {
    (void)custom;
    if (length <= 0) {
        return 0;
    }
    if (source->position >= source->length) {
        source->past_end = 1;
        return 0;
    }
    gint64 available = source->length - source->position;
    gint64 taken = length < available ? length : available;
    if (taken < length && source->exact_reads) {
        source->past_end = 1;
    }
    memcpy(buffer, source->data + source->position, (size_t)taken);
    source->position += taken;
    return taken;
}

static gint64 on_seek(VipsSourceCustom *custom, gint64 offset, int whence, EvidenceSource *source) {
    (void)custom;
    gint64 base = whence == SEEK_CUR ? source->position : whence == SEEK_END ? source->length : 0;
    gint64 target = base + offset;
    if (target < 0) {
        return -1;
    }
    if (target > source->length) {
        source->past_end = 1;
        return -1;
    }
    source->position = target;
    return target;
}

int CPinholeVips_loader_reads_past_end(const void *buf, size_t len, const char *loader, int shrink,
                                       int exact_reads, int64_t max_pixels, CPinholeVips_Interrupt *interrupt) {
    VipsOperation *operation = vips_operation_new(loader);
    if (operation == NULL) {
        return -1;
    }
    EvidenceSource source = {buf, (gint64)len, 0, exact_reads, 0};
    VipsSourceCustom *custom = vips_source_custom_new();
    g_signal_connect(custom, "read", G_CALLBACK(on_read), &source);
    g_signal_connect(custom, "seek", G_CALLBACK(on_seek), &source);
    g_object_set(operation, "source", custom, "fail_on", VIPS_FAIL_ON_NONE, NULL);
    if (shrink > 1 && g_object_class_find_property(G_OBJECT_GET_CLASS(operation), "shrink")) {
        g_object_set(operation, "shrink", shrink, NULL);
    }
    // Built without the operation cache: nothing may keep the source (and its callbacks into this frame) alive.
    if (vips_object_build(VIPS_OBJECT(operation)) == 0) {
        VipsImage *out = NULL;
        g_object_get(operation, "out", &out, NULL);
        if (out != NULL && (int64_t)out->Xsize * out->Ysize <= max_pixels) {
            CPinholeVips_interrupt_watch(interrupt, out);
            double average = 0;
            (void)vips_avg(out, &average, NULL);
        }
        if (out != NULL) {
            g_object_unref(out);
        }
    }
    vips_object_unref_outputs(VIPS_OBJECT(operation));
    g_object_unref(operation);
    g_signal_handlers_disconnect_by_data(custom, &source);
    g_object_unref(custom);
    int stopped = interrupt != NULL && CPinholeVips_interrupt_check(interrupt) != CPinholeVips_running;
    return stopped ? -1 : source.past_end;
}
