// glibc malloc settings and figures for processes that decode many large images (MallocTuning in PinholeVips).
// `<malloc.h>` is not part of Swift's Glibc module, so these wrappers declare nothing Swift could not call.
// Without glibc every function does nothing and returns 0.
#ifndef CPINHOLEVIPSMALLOC_H
#define CPINHOLEVIPSMALLOC_H

#include <stddef.h>

/// `mallopt(M_MMAP_THRESHOLD, bytes)`: blocks of `bytes` and more are mapped and unmapped on their own, and
/// glibc stops raising the threshold after each large free. Returns 1 on success.
int CPinholeVips_set_mmap_threshold(int bytes);

/// `mallopt(M_TOP_PAD, bytes)`: free memory an arena keeps at its top. Returns 1 on success.
int CPinholeVips_set_top_pad(int bytes);

/// `mallopt(M_ARENA_MAX, count)`: at most `count` arenas, the main one included. Returns 1 on success.
int CPinholeVips_set_arena_max(int count);

/// `malloc_trim(0)`: gives the free memory of every arena back to the system. Returns 1 when some was released.
int CPinholeVips_trim_memory(void);

/// Figures of `mallinfo2()`, in bytes.
typedef struct {
    size_t mapped_bytes;    // hblkhd: blocks mapped on their own
    size_t arena_bytes;     // arena: memory the main and per-thread arenas took from the system
    size_t free_bytes;      // fordblks: free memory held inside the arenas
    size_t arena_count;     // arenas in use, the main one included (from malloc_info)
} CPinholeVipsMallocFigures;

/// The allocator's figures now; all 0 without glibc.
CPinholeVipsMallocFigures CPinholeVips_malloc_figures(void);

#endif
