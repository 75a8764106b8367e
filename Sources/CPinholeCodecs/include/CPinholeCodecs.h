// CPinholeCodecs: asks the codec libraries themselves whether encoded data ends before its image does (and, for
// the memory estimate, whether a WebP is lossless).
//
// Why it exists: libvips decodes GIF with its own copy of libnsgif, which accepts a GIF cut after a complete
// frame without a word, and it reports a WebP or HEIF cut short only in its process-global error buffer, whose
// text may belong to another thread's decode. These wrappers give one decode's own evidence, as a return value:
// - GIF: giflib walks the records (descriptors, extensions, raw LZW sub-blocks, never decoded) up to the
//   trailer; running out of bytes first is truncation. Bytes after the trailer are never read.
// - WebP: libwebpdemux parses the RIFF container; "partial data" (chunks declared longer than the data) is
//   truncation. Bytes after the RIFF size are ignored, as libwebp ignores them.
// - HEIF/AVIF: libheif reads the boxes and decodes the primary image; its sub-code heif_suberror_End_of_data
//   is truncation.
// giflib's, libwebp's and libheif's callbacks are C function pointers, and giflib reads through a callback:
// Swift could not express these without a shim.
//
// Each function returns 1 when the library says the data ends early, 0 when it says the data is complete, and
// -1 when it cannot tell (the data is damaged in another way). They only read `buf` (`len` bytes), hold no
// global state and are safe to call from any thread.
#ifndef CPINHOLECODECS_H
#define CPINHOLECODECS_H

#include <stddef.h>

/// giflib (DGifOpen over `buf`): 1 when the data runs out before the GIF trailer, 0 when the trailer is reached.
int CPinholeCodecs_gif_ends_early(const void *buf, size_t len);

/// giflib, as CPinholeCodecs_gif_ends_early: the frames (image records) whose data is whole, and through
/// `ends_early` (may be NULL) whether the data runs out before the trailer; -1 when giflib cannot read it.
int CPinholeCodecs_gif_whole_frames(const void *buf, size_t len, int *ends_early);

/// libwebpdemux (WebPDemuxPartial): 1 when the RIFF container declares more bytes than `len`, 0 when complete.
int CPinholeCodecs_webp_ends_early(const void *buf, size_t len);

/// libwebp (WebPGetFeatures on each frame libwebpdemux finds): 1 when a frame is lossless (VP8L, whose decoder
/// holds the whole frame twice), 0 when every frame is lossy, -1 when no frame's header can be read.
int CPinholeCodecs_webp_is_lossless(const void *buf, size_t len);

/// libheif: 1 when reading the boxes or decoding the primary image fails with heif_suberror_End_of_data, 0 when
/// both succeed. Decodes the primary image at full size (call it only after another decode failed), unless it
/// declares more than `max_pixels` pixels (then only the boxes are read, and a clean read gives -1).
int CPinholeCodecs_heif_ends_early(const void *buf, size_t len, long long max_pixels);

#endif
