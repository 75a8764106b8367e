// CPinholeJPEG: a tiny C shim between Swift and libjpeg's API (libjpeg-turbo 2.1, Debian libjpeg62-turbo-dev).
//
// Why it exists:
// - setjmp/longjmp: libjpeg reports a fatal error by calling error_exit, which must not return; the usual answer
//   is a longjmp back to the caller. Swift cannot call setjmp (it returns twice), so every libjpeg call runs
//   inside one of these functions, which own the jmp_buf and return a status instead.
// - Warnings: libjpeg reports recoverable problems through emit_message(-1) and goes on. The shim counts them,
//   keeps the first one's text, and says whether one of them was JWRN_JPEG_EOF ("Premature end of JPEG file":
//   the data ended before EOI), which is how Pinhole tells truncated data from complete data on this path.
// - Options TurboJPEG cannot set: do_block_smoothing = FALSE (see CPinholeJPEG_decode).
// - Struct layout: Swift never sees jpeg_decompress_struct (its layout depends on JPEG_LIB_VERSION); it gets the
//   few fields it needs copied into the plain structs below.
//
// Every function returns 0 on success and -1 on a fatal libjpeg error (the message is then in report->message).
// All functions are reentrant: each call has its own decompressor and its own report; nothing is global.
#ifndef CPINHOLEJPEG_H
#define CPINHOLEJPEG_H

#include <stddef.h>

/// Room for one libjpeg message (JMSG_LENGTH_MAX is 200).
#define CPINHOLEJPEG_MESSAGE_BYTES 200
/// The largest component count a JPEG frame may declare that the shim reports on.
#define CPINHOLEJPEG_MAX_COMPONENTS 4

/// What libjpeg said during one call.
typedef struct {
    /// The fatal error's text when the call returned -1, else the first warning's text, else "".
    char message[CPINHOLEJPEG_MESSAGE_BYTES];
    /// Warnings emitted (emit_message with level -1): corrupt but decodable data, or data that ends early.
    int warningCount;
    /// 1 when one of the warnings was JWRN_JPEG_EOF: the data ended before its end-of-image marker.
    int prematureEnd;
} CPinholeJPEG_Report;

/// The frame header as libjpeg reads it, and the output it would produce at a scale of 1/`scaleDenominator`.
typedef struct {
    /// Output width and height in pixels at the scale (libjpeg's output_width/height: ceil(stored / denominator)).
    int outputWidth;
    int outputHeight;
    /// 1 for a progressive (SOF2) frame.
    int progressive;
    /// libjpeg's J_COLOR_SPACE guess for the data (1 grey, 3 YCbCr, 2 RGB, 4 CMYK, 5 YCCK).
    int colorSpace;
    /// Components in the frame (componentCount > CPINHOLEJPEG_MAX_COMPONENTS reports only the first four).
    int componentCount;
    /// Each component's id (the Ci of SOF and Cs of SOS).
    int componentIDs[CPINHOLEJPEG_MAX_COMPONENTS];
    /// Each component's inverse-DCT size at this scale: 1 means libjpeg's 1x1 IDCT, which reads the DC coefficient
    /// only; 2, 4 or 8 read AC coefficients too. libjpeg may give subsampled chroma a larger IDCT than luma
    /// (jpeg_calc_output_dimensions scales chroma up by IDCT rather than by upsampling), so ask, never assume.
    int idctSizes[CPINHOLEJPEG_MAX_COMPONENTS];
    /// 1 when the image has more than one scan: progressive, or a first scan without every component (a baseline
    /// file with non-interleaved scans). libjpeg then buffers every coefficient of the whole image.
    int multipleScans;
    /// The bytes of that whole-image coefficient buffer (jdcoefct.c: each component's blocks, rounded up to its
    /// sampling factors, at 64 coefficients of 2 bytes), whether or not the image has multiple scans.
    long long coefficientBytes;
} CPinholeJPEG_Frame;

/// Reads the markers up to the first scan of the JPEG in `data` and what a decode at 1/`scaleDenominator`
/// (1, 2, 4 or 8) would produce. No pixel is decoded.
int CPinholeJPEG_read_frame(const void *data, size_t length, int scaleDenominator, CPinholeJPEG_Frame *frame,
                            CPinholeJPEG_Report *report);

/// Output colour spaces of CPinholeJPEG_decode (the values of libjpeg's J_COLOR_SPACE, which Swift does not see).
enum {
    CPINHOLEJPEG_GREY = 1,   // JCS_GRAYSCALE: 1 byte a pixel
    CPINHOLEJPEG_RGB = 2,    // JCS_RGB: 3 bytes a pixel, R G B
    CPINHOLEJPEG_YCBCR = 3,  // JCS_YCbCr: 3 bytes a pixel, no colour conversion (for the stage profile)
};

/// Decodes the JPEG in `data` at 1/`scaleDenominator` into `pixels` (packed rows, top-left origin, stored
/// orientation) in `colorSpace` (CPINHOLEJPEG_GREY, _RGB or _YCBCR). `pixelsLength` must equal
/// outputWidth × outputHeight × bands of CPinholeJPEG_read_frame for the same data and scale, else -1.
///
/// Block smoothing is off (do_block_smoothing = FALSE): libjpeg otherwise invents AC coefficients for blocks whose
/// AC scans it has not seen, so a stream without its AC scans would not decode like the whole file. With every
/// scan present smoothing never applies, so for complete data this equals TurboJPEG's tjDecompress2 (same IDCT,
/// same fancy upsampling, same colour conversion).
///
/// Warnings do not stop the decode: rows past the end of the data come out grey, and report->prematureEnd says so.
int CPinholeJPEG_decode(const void *data, size_t length, int scaleDenominator, int colorSpace, unsigned char *pixels,
                        size_t pixelsLength, CPinholeJPEG_Report *report);

#endif
