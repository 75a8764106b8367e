// CPinholeVips, private: a VipsSource over bytes in memory, made of VipsSourceCustom and its "read" and "seek"
// signals, that (a) fails its reads once an interrupt says stop, so a loader that streams its input stops at its
// next read, and (b) records whether a loader asked for bytes past the end (evidence of truncation).
#ifndef CPINHOLEVIPS_MEMORY_SOURCE_H
#define CPINHOLEVIPS_MEMORY_SOURCE_H

#include <stddef.h>
#include "CPinholeVipsInterrupt.h"

/// A new source over `buf` (`len` bytes, not copied: `buf` must outlive the source and every image made from
/// it). Reads fail (-1) once `interrupt` (may be NULL) says stop. With `exact_reads`, a read that gets fewer
/// bytes than asked counts as past the end; otherwise only a read at the very end does. Unref with
/// g_object_unref.
VipsSource *CPinholeVips_memory_source_new(const void *buf, size_t len, CPinholeVips_Interrupt *interrupt,
                                           int exact_reads);

/// Counts one unit of progress (a read, a tile) on `interrupt` (CPinholeVips_interrupt_ticks).
void CPinholeVips_interrupt_count_progress(CPinholeVips_Interrupt *interrupt);

/// 1 when a loader read or sought past the end of the source's bytes.
int CPinholeVips_memory_source_past_end(VipsSource *source);

#endif
