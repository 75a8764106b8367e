// CPinholeVips, processing: fixed-argument wrappers over the libvips operations behind content modes and
// Pinhole's built-in image processors (see CPinholeVips.h for the shim's conventions).
//
// Why each exists: vips_smartcrop, vips_thumbnail_image, vips_gaussblur and vips_colourspace take variadic
// option lists Swift cannot pass; the rounded-corner mask is a chain of about fifteen libvips operations whose
// intermediate images must be released on every path, which is simplest in one C function.
//
// Every function returns 0 on success and -1 on failure (the message is then in the libvips error buffer).
// Images returned through `out` are owned by the caller (CPinholeVips_unref); inputs are not consumed.
#ifndef CPINHOLEVIPS_PROCESSING_H
#define CPINHOLEVIPS_PROCESSING_H

#include <vips/vips.h>

/// vips_smartcrop: cuts `width`×`height` (each ≤ the image's side) out of `in`, placed by `interesting`
/// (a VipsInteresting: VIPS_INTERESTING_CENTRE, _ATTENTION or _ENTROPY). For attention and entropy `in` is
/// computed into memory first (they read it more than once; a shrink-on-load image can be read once, in order).
int CPinholeVips_crop(VipsImage *in, int width, int height, int interesting, VipsImage **out);

/// vips_extract_area: the width x height window at (left, top); the window must lie inside `in`.
int CPinholeVips_extract(VipsImage *in, int left, int top, int width, int height, VipsImage **out);

/// vips_thumbnail_image with size=force: scales `in` to exactly `width`×`height` with the kernel vips_thumbnail
/// uses (lanczos3; alpha premultiplied while resampling). No colour management, no rotation.
int CPinholeVips_resize(VipsImage *in, int width, int height, VipsImage **out);

/// Makes the corners of `in` transparent: a rounded rectangle of `radius` pixels (clamped to half the shorter
/// side), anti-aliased over one pixel, measured from pixel centres. The mask multiplies an existing alpha band
/// or becomes a new one (1 band -> 2, 3 -> 4). A radius below 0.5 leaves every pixel opaque (alpha 255).
int CPinholeVips_rounded_corners(VipsImage *in, double radius, VipsImage **out);

/// vips_gaussblur with standard deviation `sigma` pixels (> 0). Images with alpha are blurred premultiplied
/// (no dark fringes where transparent pixels meet opaque ones). The result is 8-bit.
int CPinholeVips_gaussblur(VipsImage *in, double sigma, VipsImage **out);

/// vips_colourspace to VIPS_INTERPRETATION_B_W: luminance only (1 band, or 2 with alpha).
int CPinholeVips_greyscale(VipsImage *in, VipsImage **out);

#endif
