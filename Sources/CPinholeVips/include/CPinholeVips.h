// CPinholeVips: a tiny C shim between Swift and libvips 8.14.
//
// Why it exists (each wrapper below falls in one of these groups):
// - Variadic calls: libvips operations take NULL-terminated `name, value` option lists
//   (vips_thumbnail_buffer, vips_*_save_buffer, vips_flatten, vips_embed, vips_arrayjoin, ...). Swift cannot
//   call C variadic functions, so each wrapper passes a fixed set of options.
// - Macros: VIPS_INIT is a macro; image field access is wrapped so Swift never depends on struct layout.
// - Process-wide setup done once (pthread_once): init, cache off, concurrency 1, and GLib log handlers that
//   capture every warning into a bounded ring buffer instead of printing it to stderr.
// - Error text: CPinholeVips_take_error copies the calling thread's libvips errors into a caller buffer and
//   clears them (CPinholeVipsErrorCapture.h), so Swift never holds a pointer into libvips' memory.
// - Pixel copy: CPinholeVips_copy_pixels writes an image straight into a caller buffer (one copy, no
//   intermediate malloc).
//
// Every function returns 0 on success and -1 on failure (the message is then in the libvips error buffer)
// unless documented otherwise. Images returned through `out` are owned by the caller: release them with
// CPinholeVips_unref.
#ifndef CPINHOLEVIPS_H
#define CPINHOLEVIPS_H

#include <stddef.h>
#include <vips/vips.h>

/// Initialises libvips once for the process (thread-safe). Returns 0 when libvips is usable.
int CPinholeVips_init(void);

/// The libvips version, e.g. "8.14.1". Static storage.
const char *CPinholeVips_version(void);

/// 1 when libvips' ORC vector paths are on, else 0 (CPinholeVips_init turns them off unless CPinholeVipsOrcLock.h
/// reports its lock installed).
int CPinholeVips_vector_enabled(void);

/// Moves the oldest captured warning into `buf` (NUL-terminated, truncated to `len`). Returns 1 when a
/// warning was taken, 0 when the ring buffer is empty.
int CPinholeVips_take_warning(char *buf, size_t len);

/// Adds `message` to the warning ring buffer under the domain "Pinhole" (decisions worth a diagnostic, such as an
/// ignored colour profile).
void CPinholeVips_note(const char *message);

/// The number of warnings dropped because the ring buffer was full, since the last call (then reset).
int CPinholeVips_take_dropped_warning_count(void);

/// Opens a capture of the warnings logged on the calling thread (nested captures share the outermost one's text):
/// every warning logged on this thread until the matching CPinholeVips_capture_end is kept, in order, once each,
/// at most 511 bytes in all. libvips reports some failures only this way (libpng's errors).
void CPinholeVips_capture_begin(void);

/// Closes the capture CPinholeVips_capture_begin opened on the calling thread.
void CPinholeVips_capture_end(void);

/// Copies the warnings captured on the calling thread so far into `buf` ("; "-separated, NUL-terminated), or ""
/// when no capture is open. The capture stays open and keeps its text.
void CPinholeVips_captured_warnings(char *buf, size_t len);

// CPinholeVips_take_error: see CPinholeVipsErrorCapture.h.
#include "CPinholeVipsErrorCapture.h"

/// What an image header says, read without decoding pixels.
typedef struct {
    int width;           // stored width of one frame, pixels
    int height;          // stored height of one frame, pixels
    int bands;
    int interpretation;  // VipsInterpretation
    int format;          // VipsBandFormat
    int orientation;     // EXIF orientation 1...8 (1 when none)
    int pages;           // frames in the file
    int hasAlpha;
    int hasICC;
    char loader[64];     // libvips loader class name, e.g. "VipsForeignLoadJpegBuffer"
    int iccFit;          // CPinholeVips_profile_none, _fits, _broken or _mismatch (CPinholeVipsPolicy.h)
    char iccSpace[5];    // the embedded profile's colour space signature ("GRAY", "RGB ", "CMYK"), or ""
    int sampleBytes;     // bytes of one band of one pixel (vips_format_sizeof)
    int interlaced;      // 1 for an interlaced (Adam7) PNG, which libvips loads whole: libvips' "interlaced"
} CPinholeVips_Header;

/// Reads the header of an encoded image held in memory (no pixel is decoded).
int CPinholeVips_read_header(const void *buf, size_t len, CPinholeVips_Header *out);

/// The animation facts of an encoded image's header (no pixel is decoded): the per-frame delays in milliseconds
/// (libvips' "delay"; at most `capacity` written, `*delay_count` says how many there are), and the loop count
/// ("loop", 0 = forever; 0 when absent). 0 on success, -1 when libvips cannot read the header.
int CPinholeVips_read_animation(const void *buf, size_t len, int *delays, int capacity, int *delay_count, int *loop);

/// Loads frames `page` ..< `page` + `n` of an animation at full size, stacked top to bottom in one image (each
/// frame a page of the stored height; GIF disposal and WebP blending done by the loader). `option_string` (may be
/// NULL) is given to the loader. `buf` must outlive `*out`.
int CPinholeVips_load_pages(const void *buf, size_t len, int page, int n, const char *option_string, VipsImage **out);

/// vips_thumbnail_buffer with a fixed option set. `width`×`height` is the box (after orientation) and `size` a
/// VipsSize (VIPS_SIZE_FORCE gives exactly width×height). `import_profile`, `export_profile` and
/// `option_string` may be NULL. `buf` must outlive `*out`.
int CPinholeVips_thumbnail(const void *buf, size_t len, int width, int height, int size, int no_rotate,
                           const char *import_profile, const char *export_profile, const char *option_string,
                           VipsImage **out);

/// The JPEG fast path's resize: wraps packed 8-bit pixels decoded elsewhere (TurboJPEG, `bands` 1 = grey or 3 =
/// sRGB, no copy), tags them with EXIF `orientation` (1...8) and runs vips_thumbnail_image with size=force to
/// exactly `box_width`×`box_height` (the box is in displayed orientation, as for CPinholeVips_thumbnail): the
/// same lanczos3 reduce and the same autorotate as the libvips path. `data` must outlive `*out` and every image
/// computed from it.
int CPinholeVips_thumbnail_pixels(const void *data, size_t len, int width, int height, int bands, int orientation,
                                  int box_width, int box_height, VipsImage **out);

/// Converts any image to 8-bit sRGB: 1 band (grey), 3 bands (RGB) or 4 bands (RGBA, straight alpha).
/// Grey with alpha becomes RGBA. 16-bit values are scaled down (v >> 8).
int CPinholeVips_to_srgb8(VipsImage *in, VipsImage **out);

/// Field accessors (so Swift never relies on the VipsImage struct layout).
int CPinholeVips_width(const VipsImage *image);
int CPinholeVips_height(const VipsImage *image);
int CPinholeVips_bands(const VipsImage *image);

/// Computes `image` and writes its pixels (rows top to bottom, packed) into `dst`, which holds `len`
/// bytes; `len` must be width × height × bands × bytes per sample.
int CPinholeVips_copy_pixels(VipsImage *image, unsigned char *dst, size_t len);

/// A new 8-bit image holding a copy of packed pixels (`bands` 1, 3 or 4; interpretation B_W or sRGB).
int CPinholeVips_image_from_pixels(const void *data, size_t len, int width, int height, int bands,
                                   VipsImage **out);

/// Removes alpha by compositing onto `background` (RGB, 0...255).
int CPinholeVips_flatten(VipsImage *in, const double *background, int count, VipsImage **out);

/// vips_thumbnail_image: fits `in` inside `width`×`height` (size=down: never enlarges).
int CPinholeVips_thumbnail_image(VipsImage *in, int width, int height, VipsImage **out);

/// vips_gravity (centre): places `in` in the middle of a `width`×`height` canvas filled with `background`.
int CPinholeVips_centre(VipsImage *in, int width, int height, const double *background, int count,
                        VipsImage **out);

/// vips_embed with extend=background.
int CPinholeVips_embed(VipsImage *in, int x, int y, int width, int height, const double *background,
                       int count, VipsImage **out);

/// vips_arrayjoin: a grid of `n` images, `across` per row, `shim` pixels apart, gaps filled with `background`.
int CPinholeVips_arrayjoin(VipsImage **in, int n, int across, int shim, const double *background, int count,
                           VipsImage **out);

/// vips_text: renders `text` (Pango markup allowed) at `dpi` into a 1-band 8-bit coverage image (0 = empty,
/// 255 = ink). Used to label the benchmark's PNG chart.
int CPinholeVips_text(const char *text, int dpi, VipsImage **out);

/// Encoders. On success `*buf` (free with CPinholeVips_free) holds `*len` bytes. Metadata is stripped.
int CPinholeVips_jpegsave(VipsImage *in, int quality, void **buf, size_t *len);
int CPinholeVips_pngsave(VipsImage *in, void **buf, size_t *len);
int CPinholeVips_webpsave(VipsImage *in, int quality, void **buf, size_t *len);

/// vips_heifsave_buffer as AVIF (AV1 through libheif), at `quality` (1-100), effort 2 of 0-9 (libvips' default
/// of 4 takes about twice as long for thumbnails of the same size), metadata stripped.
int CPinholeVips_avifsave(VipsImage *in, int quality, void **buf, size_t *len);
/// vips_gifsave_buffer (cgif: a palette per frame, libvips' default effort and dither), metadata stripped.
int CPinholeVips_gifsave(VipsImage *in, void **buf, size_t *len);

/// Saves `stack` (the `count` frames of an animation one under the other, each `page_height` rows) as an animated
/// GIF (`webp` 0) or lossy WebP at `quality` (`webp` 1): libvips' `page-height`, `delay` (`delays`, one per frame,
/// in milliseconds) and `loop` (0: forever) on a copy of `stack`, then vips_gifsave_buffer or
/// vips_webpsave_buffer, metadata stripped.
int CPinholeVips_animation_save(VipsImage *stack, int page_height, const int *delays, int count, int loop, int webp,
                                int quality, void **buf, size_t *len);

/// The ICC profile embedded in the image in `buf` (libvips' `icc-profile-data`, read from the header only), as a
/// copy of `*length` bytes to free with CPinholeVips_free; NULL (and `*length` 0) when there is none.
void *CPinholeVips_icc_profile(const void *buf, size_t len, size_t *length);

/// For the stage profile (`pinhole bench thumbnail --stages`): loads the image in `buf` with the loader options
/// `option_string` ("shrink=2", "scale=0.25", or "" for none), decodes every pixel of it into memory, and frees
/// it. Decoding only: no resize, no colour conversion. Returns 0 on success.
int CPinholeVips_decode_only(const void *buf, size_t len, const char *option_string);

/// g_object_unref for images; NULL is ignored.
void CPinholeVips_unref(VipsImage *image);
/// g_free for buffers returned by the encoders; NULL is ignored.
void CPinholeVips_free(void *pointer);

// Content modes and built-in image processors (crop, resize, rounded corners, blur, greyscale).
#include "CPinholeVipsProcessing.h"
// Stopping a decode, untrusted input and colour profiles, evidence of truncation: one header each.
#include "CPinholeVipsInterrupt.h"
#include "CPinholeVipsPolicy.h"
#include "CPinholeVipsEvidence.h"
// The lock that keeps libvips' ORC (SIMD) paths safe to leave on.
#include "CPinholeVipsOrcLock.h"
// glibc malloc settings and figures (MallocTuning).
#include "CPinholeVipsMalloc.h"

#endif
