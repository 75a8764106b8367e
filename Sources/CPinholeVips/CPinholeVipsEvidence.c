// CPinholeVips, evidence of truncation: see include/CPinholeVipsEvidence.h.
#include "CPinholeVipsEvidence.h"

#include "MemorySource.h"

int CPinholeVips_loader_reads_past_end(const void *buf, size_t len, const char *loader, int shrink,
                                       int exact_reads, int64_t max_pixels, CPinholeVips_Interrupt *interrupt) {
    VipsOperation *operation = vips_operation_new(loader);
    if (operation == NULL) {
        return -1;
    }
    VipsSource *source = CPinholeVips_memory_source_new(buf, len, interrupt, exact_reads);
    g_object_set(operation, "source", source, "fail_on", VIPS_FAIL_ON_NONE, NULL);
    if (shrink > 1 && g_object_class_find_property(G_OBJECT_GET_CLASS(operation), "shrink")) {
        g_object_set(operation, "shrink", shrink, NULL);
    }
    // Built without the operation cache, so that nothing keeps the operation and its source alive after this call.
    if (vips_object_build(VIPS_OBJECT(operation)) == 0) {
        VipsImage *out = NULL;
        g_object_get(operation, "out", &out, NULL);
        if (out != NULL && (int64_t)out->Xsize * out->Ysize <= max_pixels) {
            (void)CPinholeVips_copy_pixels_interruptible(out, NULL, 0, interrupt);
        }
        if (out != NULL) {
            g_object_unref(out);
        }
    }
    vips_object_unref_outputs(VIPS_OBJECT(operation));
    g_object_unref(operation);
    int past_end = CPinholeVips_memory_source_past_end(source);
    g_object_unref(source);
    int stopped = interrupt != NULL && CPinholeVips_interrupt_check(interrupt) != CPinholeVips_running;
    return stopped ? -1 : past_end;
}
