// CPinholeVips, processing: see include/CPinholeVipsProcessing.h for why each wrapper exists.
#include "CPinholeVips.h"

#include <math.h>

#define TEMPORARIES 16

static void release(VipsImage **images, int count) {
    for (int i = 0; i < count; i++) {
        if (images[i] != NULL) {
            g_object_unref(images[i]);
        }
    }
}

int CPinholeVips_crop(VipsImage *in, int width, int height, int interesting, VipsImage **out) {
    if (interesting == VIPS_INTERESTING_CENTRE) {
        return vips_smartcrop(in, out, width, height, "interesting", VIPS_INTERESTING_CENTRE, NULL);
    }
    // Attention and entropy read the image several times, and a shrink-on-load result can only be read once, in
    // order ("out of order read"): compute it into memory first, as vips_thumbnail does before its own crop.
    VipsImage *memory = vips_image_copy_memory(in);
    if (memory == NULL) {
        return -1;
    }
    int status = vips_smartcrop(memory, out, width, height, "interesting", (VipsInteresting)interesting, NULL);
    g_object_unref(memory);
    return status;
}

int CPinholeVips_extract(VipsImage *in, int left, int top, int width, int height, VipsImage **out) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

int CPinholeVips_resize(VipsImage *in, int width, int height, VipsImage **out) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_FORCE, NULL);
}

// The coverage of each pixel by a rounded rectangle of radius r (>= 0.5) filling width x height, as an 8-bit
// band: (r + 0.5 - distance) x 255 clipped to 0...255, where distance runs from the pixel centre (x + 0.5,
// y + 0.5) to the inner rectangle [r, width - r] x [r, height - r] (0 inside it): per axis
// d = max(r - p, p - (side - r), 0), then sqrt(dx^2 + dy^2).
static int rounded_mask(int width, int height, double r, VipsImage **out) {
    VipsImage *t[TEMPORARIES] = {NULL};
    double minus[2] = {-1, -1};
    double plus[2] = {1, 1};
    double low[2] = {r - 0.5, r - 0.5};
    double high[2] = {0.5 - (width - r), 0.5 - (height - r)};
    int failed = vips_xyz(&t[0], width, height, NULL) ||
                 vips_linear(t[0], &t[1], minus, low, 2, NULL) ||   // r - p
                 vips_linear(t[0], &t[2], plus, high, 2, NULL) ||   // p - (side - r)
                 vips_relational(t[1], t[2], &t[3], VIPS_OPERATION_RELATIONAL_MORE, NULL) ||
                 vips_ifthenelse(t[3], t[1], t[2], &t[4], NULL) ||  // the larger of the two: d
                 vips_abs(t[4], &t[5], NULL) ||
                 vips_add(t[4], t[5], &t[6], NULL) ||               // d + |d| = 2 max(d, 0)
                 vips_multiply(t[6], t[6], &t[7], NULL) ||          // 4 max(d, 0)^2
                 vips_extract_band(t[7], &t[8], 0, NULL) ||
                 vips_extract_band(t[7], &t[9], 1, NULL) ||
                 vips_add(t[8], t[9], &t[10], NULL) ||
                 vips_pow_const1(t[10], &t[11], 0.5, NULL) ||      // 2 distance
                 // (r + 0.5 - distance) x 255, + 0.5 so that the cast (which truncates) rounds
                 vips_linear1(t[11], &t[12], -127.5, (r + 0.5) * 255 + 0.5, NULL) ||
                 vips_cast_uchar(t[12], &t[13], NULL);             // clips to 0...255
    if (!failed) {
        *out = t[13];
        t[13] = NULL;
    }
    release(t, TEMPORARIES);
    return failed ? -1 : 0;
}

int CPinholeVips_rounded_corners(VipsImage *in, double radius, VipsImage **out) {
    int width = in->Xsize;
    int height = in->Ysize;
    double r = fmin(radius, fmin(width, height) / 2.0);
    VipsImage *t[TEMPORARIES] = {NULL};
    int failed;
    if (r >= 0.5) {
        failed = rounded_mask(width, height, r, &t[0]);
    } else {  // nothing to round: an opaque alpha band
        failed = vips_black(&t[1], width, height, NULL) || vips_linear1(t[1], &t[2], 1, 255, NULL) ||
                 vips_cast_uchar(t[2], &t[0], NULL);
    }
    if (failed) {
        release(t, TEMPORARIES);
        return -1;
    }
    if (vips_image_hasalpha(in)) {
        // New alpha = old alpha x mask / 255 (rounded); the colour bands are kept as they are.
        int colours = in->Bands - 1;
        failed = vips_extract_band(in, &t[3], 0, "n", colours, NULL) ||
                 vips_extract_band(in, &t[4], colours, NULL) ||
                 vips_multiply(t[4], t[0], &t[5], NULL) ||
                 vips_linear1(t[5], &t[6], 1.0 / 255.0, 0.5, NULL) ||
                 vips_cast_uchar(t[6], &t[7], NULL) ||
                 vips_bandjoin2(t[3], t[7], out, NULL);
    } else {
        failed = vips_bandjoin2(in, t[0], out, NULL);
    }
    release(t, TEMPORARIES);
    return failed ? -1 : 0;
}

int CPinholeVips_gaussblur(VipsImage *in, double sigma, VipsImage **out) {
    if (!vips_image_hasalpha(in)) {
        return vips_gaussblur(in, out, sigma, NULL);
    }
    VipsImage *t[3] = {NULL};
    int failed = vips_premultiply(in, &t[0], NULL) ||
                 vips_gaussblur(t[0], &t[1], sigma, NULL) ||
                 vips_unpremultiply(t[1], &t[2], NULL) ||
                 vips_cast_uchar(t[2], out, NULL);
    release(t, 3);
    return failed ? -1 : 0;
}

int CPinholeVips_greyscale(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_B_W, NULL);
}
