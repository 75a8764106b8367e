#include "CPinholeVipsMalloc.h"

// Any libc header defines __GLIBC__ on glibc (through <features.h>); <stddef.h> is the compiler's and does not.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

int CPinholeVips_set_mmap_threshold(int bytes) {
#ifdef __GLIBC__
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}

int CPinholeVips_set_top_pad(int bytes) {
#ifdef __GLIBC__
    return mallopt(M_TOP_PAD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}

int CPinholeVips_set_arena_max(int count) {
#ifdef __GLIBC__
    return mallopt(M_ARENA_MAX, count);
#else
    (void)count;
    return 0;
#endif
}

int CPinholeVips_trim_memory(void) {
#ifdef __GLIBC__
    return malloc_trim(0);
#else
    return 0;
#endif
}

CPinholeVipsMallocFigures CPinholeVips_malloc_figures(void) {
    CPinholeVipsMallocFigures figures = {0, 0, 0, 0};
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    figures.mapped_bytes = info.hblkhd;
    figures.arena_bytes = info.arena;
    figures.free_bytes = info.fordblks;
#endif
#ifdef __GLIBC__
    // malloc_info writes one <heap nr="N"> element per arena (the main one included); it is the only interface
    // that tells how many arenas exist.
    char *text = NULL;
    size_t length = 0;
    FILE *stream = open_memstream(&text, &length);
    if (stream != NULL) {
        if (malloc_info(0, stream) == 0 && fflush(stream) == 0) {
            for (const char *at = text; at != NULL && (at = strstr(at, "<heap nr=")) != NULL; at += 9) {
                figures.arena_count += 1;
            }
        }
        fclose(stream);
        free(text);
    }
#endif
    return figures;
}
