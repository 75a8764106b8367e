// CPinholeVips, untrusted input and colour profiles: what libvips decides before decoding, made visible.
//
// - Which loader libvips would pick for some bytes, and whether libvips marks it unsafe for untrusted input
//   (VIPS_OPERATION_UNTRUSTED): the flag lives in the operation's class struct, which Swift cannot read.
// - vips_block_untrusted_set wrapped with the one exception Pinhole needs (the SVG loader, admitted per decode).
// - Whether an embedded ICC profile fits the image (libvips applies a grey profile to RGB data without a word).
// - A thumbnail that ignores the embedded profile (vips_thumbnail_buffer always uses it): variadic calls.
#ifndef CPINHOLEVIPS_POLICY_H
#define CPINHOLEVIPS_POLICY_H

#include <stddef.h>
#include <vips/vips.h>

/// The loader libvips picks for `buf` (vips_foreign_find_load_buffer), as its nickname (e.g. "jpegload_buffer",
/// "magickload_buffer") in `name` (NUL-terminated, cut to `name_len`); `*untrusted` is 1 when libvips marks it
/// unsafe for untrusted input. Only the loaders' magic-byte checks run. Returns 0, or -1 when none claims the
/// data.
int CPinholeVips_find_loader(const void *buf, size_t len, char *name, size_t name_len, int *untrusted);

/// Blocks (1) or unblocks (0) every libvips operation marked untrusted, process-wide (vips_block_untrusted_set),
/// except the SVG loader, which stays available: Pinhole admits SVG per decode.
void CPinholeVips_set_untrusted_blocked(int blocked);

/// 1 when the libvips operation `nickname` (e.g. "magickload_buffer") is blocked now, 0 when not, -1 when unknown.
int CPinholeVips_operation_blocked(const char *nickname);

/// How an image's embedded ICC profile relates to its pixels.
enum {
    CPinholeVips_profile_none = 0,      // no embedded profile
    CPinholeVips_profile_fits = 1,      // parses, and its colour space is the image's (GRAY, RGB, CMYK)
    CPinholeVips_profile_broken = 2,    // lcms cannot parse it, or libvips cannot use it with these bands
    CPinholeVips_profile_mismatch = 3,  // parses, but for another colour space (grey on RGB, CMYK on RGB, ...)
};

/// Classifies the embedded profile of a loaded image; `space` receives the profile's 4-character colour space
/// signature ("GRAY", "RGB ", "CMYK"; empty when there is none or it is too short), NUL-terminated.
int CPinholeVips_profile_fit(VipsImage *image, char space[5]);

/// vips_thumbnail_buffer's work without the embedded ICC profile: loads `buf` (`option_string` as for the
/// loader, e.g. "fail_on=truncated"), removes the profile and runs vips_thumbnail_image to the box. CMYK goes
/// through libvips' fallback CMYK profile to sRGB; everything else is taken as sRGB (or grey) as stored. For the
/// rare images whose profile does not fit. `jpeg_shrink` above 1 loads a JPEG at that DCT scale (shrink-on-load;
/// pass 1 for any other format: only jpegload has the option). `buf` must outlive `*out`.
int CPinholeVips_thumbnail_ignoring_profile(const void *buf, size_t len, int jpeg_shrink, int width, int height,
                                            int size, int no_rotate, const char *option_string, VipsImage **out);

#endif
