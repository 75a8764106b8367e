// CPinholeVips, evidence of truncation: did a libvips loader ask for bytes past the end of the data?
//
// libvips reports "premature end of data" (libjpeg's JERR_INPUT_EOF, libpng's "not enough data", libtiff's
// reads past the end) only as text in its process-global error buffer, or as a GLib warning, where another
// thread's decode can interleave. This wrapper runs one loader on a VipsSourceCustom of our own over the same
// bytes and records, in that source only, whether the loader read at the end or sought past it: one decode's
// own evidence, with no text involved. The custom source needs C callbacks (GObject signals).
#ifndef CPINHOLEVIPS_EVIDENCE_H
#define CPINHOLEVIPS_EVIDENCE_H

#include <stddef.h>
#include "CPinholeVipsInterrupt.h"

/// Loads `buf` with the libvips loader `loader` (a source loader's nickname: "jpegload_source", "pngload_source",
/// "tiffload_source") at fail_on=none and computes every pixel (on the calling thread, checking `interrupt`). `shrink` > 1 is passed to loaders that
/// take it (JPEG DCT scaling: the whole entropy-coded stream is still read). With `exact_reads` (TIFF: libtiff asks
/// for exactly the bytes it needs), a read that gets fewer bytes than it asked for counts as past the end too;
/// without it (libjpeg and libpng read ahead in 4 KiB blocks) only a read at the very end counts. Images whose
/// header declares more
/// than `max_pixels` pixels are not decoded (their header read is still evidence). Returns 1 when the loader asked
/// for bytes past the end of `buf`, 0 when it never did, -1 when `loader` is unknown or `interrupt` stopped the
/// run.
///
/// Only meaningful for loaders that stream their input (JPEG, PNG, TIFF); GIF and WebP loaders map the whole
/// source, HEIF probes past the end of complete files.
int CPinholeVips_loader_reads_past_end(const void *buf, size_t len, const char *loader, int shrink,
                                       int exact_reads, int64_t max_pixels, CPinholeVips_Interrupt *interrupt);

#endif
