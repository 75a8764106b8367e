#include "CPinholeVipsMalloc.h"

// Any libc header defines __GLIBC__ on glibc (through <features.h>); <stddef.h> is the compiler's and does not.
#include <stdlib.h>
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

int CPinholeVips_trim_memory(void) {
#ifdef __GLIBC__
    return malloc_trim(0);
#else
    return 0;
#endif
}

CPinholeVipsMallocFigures CPinholeVips_malloc_figures(void) {
    CPinholeVipsMallocFigures figures = {0, 0, 0};
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    figures.mapped_bytes = info.hblkhd;
    figures.arena_bytes = info.arena;
    figures.free_bytes = info.fordblks;
#endif
    return figures;
}
