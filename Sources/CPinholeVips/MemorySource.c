// CPinholeVips, private: see MemorySource.h.
#include "MemorySource.h"

#include <errno.h>
#include <string.h>

typedef struct {
    const char *data;
    gint64 length;
    gint64 position;
    CPinholeVips_Interrupt *interrupt;
    int exact_reads;
    int past_end;
} MemorySource;

// Named with the shim's prefix so that scripts/tsan.supp covers them (libvips calls them from several threads, one
// at a time under a GMutex ThreadSanitizer cannot see).
static gint64 CPinholeVips_memory_source_read(VipsSourceCustom *custom, void *buffer, gint64 length,
                                              MemorySource *source) {
    (void)custom;
    if (source->interrupt != NULL) {
        if (CPinholeVips_interrupt_check(source->interrupt) != CPinholeVips_running) {
            errno = ECANCELED;
            return -1;
        }
        CPinholeVips_interrupt_count_progress(source->interrupt);
    }
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

static gint64 CPinholeVips_memory_source_seek(VipsSourceCustom *custom, gint64 offset, int whence,
                                              MemorySource *source) {
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

VipsSource *CPinholeVips_memory_source_new(const void *buf, size_t len, CPinholeVips_Interrupt *interrupt,
                                           int exact_reads) {
    MemorySource *state = g_new0(MemorySource, 1);
    state->data = buf;
    state->length = (gint64)len;
    state->interrupt = interrupt;
    state->exact_reads = exact_reads;
    VipsSourceCustom *custom = vips_source_custom_new();
    // The state lives exactly as long as the source (freed with it).
    g_object_set_data_full(G_OBJECT(custom), "pinhole-memory-source", state, g_free);
    g_signal_connect(custom, "read", G_CALLBACK(CPinholeVips_memory_source_read), state);
    g_signal_connect(custom, "seek", G_CALLBACK(CPinholeVips_memory_source_seek), state);
    return VIPS_SOURCE(custom);
}

int CPinholeVips_memory_source_past_end(VipsSource *source) {
    MemorySource *state = g_object_get_data(G_OBJECT(source), "pinhole-memory-source");
    return state != NULL && state->past_end;
}
