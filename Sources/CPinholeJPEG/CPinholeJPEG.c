// CPinholeJPEG: see include/CPinholeJPEG.h for why each function exists.
#include "CPinholeJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

_Static_assert(JMSG_LENGTH_MAX <= CPINHOLEJPEG_MESSAGE_BYTES, "a libjpeg message must fit the report");
_Static_assert(CPINHOLEJPEG_GREY == JCS_GRAYSCALE && CPINHOLEJPEG_RGB == JCS_RGB && CPINHOLEJPEG_YCBCR == JCS_YCbCr,
               "the shim's colour spaces are libjpeg's");

// MARK: - Error manager: fatal errors longjmp back into the function that called libjpeg

typedef struct {
    struct jpeg_error_mgr pub;  // first, so libjpeg's err pointer is also ours
    jmp_buf escape;
    CPinholeJPEG_Report *report;
} ErrorManager;

static void error_exit(j_common_ptr cinfo) {
    ErrorManager *manager = (ErrorManager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, manager->report->message);
    longjmp(manager->escape, 1);
}

static void emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) {
        return;  // trace messages
    }
    ErrorManager *manager = (ErrorManager *)cinfo->err;
    CPinholeJPEG_Report *report = manager->report;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) {
        report->prematureEnd = 1;
    }
    if (report->warningCount == 0) {
        (*cinfo->err->format_message)(cinfo, report->message);
    }
    report->warningCount += 1;
    cinfo->err->num_warnings += 1;
}

static void output_message(j_common_ptr cinfo) {
    (void)cinfo;  // never print: the report carries the text
}

/// Zeroes `report` and `cinfo`, and points `cinfo` at an error manager that reports into `report`.
static void prepare(struct jpeg_decompress_struct *cinfo, ErrorManager *errors, CPinholeJPEG_Report *report) {
    memset(report, 0, sizeof *report);
    memset(cinfo, 0, sizeof *cinfo);
    cinfo->err = jpeg_std_error(&errors->pub);
    errors->pub.error_exit = error_exit;
    errors->pub.emit_message = emit_message;
    errors->pub.output_message = output_message;
    errors->report = report;
}

// MARK: - Calls

int CPinholeJPEG_read_frame(const void *data, size_t length, int scaleDenominator, CPinholeJPEG_Frame *frame,
                            CPinholeJPEG_Report *report) {
    struct jpeg_decompress_struct cinfo;
    ErrorManager errors;
    prepare(&cinfo, &errors, report);
    memset(frame, 0, sizeof *frame);
    if (setjmp(errors.escape)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, (const unsigned char *)data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)scaleDenominator;
    jpeg_calc_output_dimensions(&cinfo);
    frame->outputWidth = (int)cinfo.output_width;
    frame->outputHeight = (int)cinfo.output_height;
    frame->progressive = cinfo.progressive_mode ? 1 : 0;
    frame->colorSpace = (int)cinfo.jpeg_color_space;
    frame->componentCount = cinfo.num_components;
    frame->multipleScans = cinfo.progressive_mode || cinfo.comps_in_scan < cinfo.num_components;
    frame->coefficientBytes = 0;
    for (int i = 0; i < cinfo.num_components; i++) {
        const jpeg_component_info *component = &cinfo.comp_info[i];
        long long h = component->h_samp_factor > 0 ? component->h_samp_factor : 1;
        long long v = component->v_samp_factor > 0 ? component->v_samp_factor : 1;
        long long columns = ((long long)component->width_in_blocks + h - 1) / h * h;
        long long rows = ((long long)component->height_in_blocks + v - 1) / v * v;
        frame->coefficientBytes += columns * rows * (long long)sizeof(JBLOCK);
    }
    for (int i = 0; i < cinfo.num_components && i < CPINHOLEJPEG_MAX_COMPONENTS; i++) {
        frame->componentIDs[i] = cinfo.comp_info[i].component_id;
#if JPEG_LIB_VERSION >= 70
        frame->idctSizes[i] = cinfo.comp_info[i].DCT_h_scaled_size;
#else
        frame->idctSizes[i] = cinfo.comp_info[i].DCT_scaled_size;
#endif
    }
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int CPinholeJPEG_decode(const void *data, size_t length, int scaleDenominator, int colorSpace, unsigned char *pixels,
                        size_t pixelsLength, CPinholeJPEG_Report *report) {
    struct jpeg_decompress_struct cinfo;
    ErrorManager errors;
    prepare(&cinfo, &errors, report);
    if (setjmp(errors.escape)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, (const unsigned char *)data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)scaleDenominator;
    cinfo.do_block_smoothing = FALSE;
    if (colorSpace != CPINHOLEJPEG_GREY && colorSpace != CPINHOLEJPEG_RGB && colorSpace != CPINHOLEJPEG_YCBCR) {
        snprintf(report->message, sizeof report->message, "unknown output colour space %d", colorSpace);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    cinfo.out_color_space = (J_COLOR_SPACE)colorSpace;
    jpeg_calc_output_dimensions(&cinfo);
    size_t stride = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
    int bands = colorSpace == CPINHOLEJPEG_GREY ? 1 : 3;
    if (cinfo.output_components != bands || stride * (size_t)cinfo.output_height != pixelsLength) {
        snprintf(report->message, sizeof report->message, "output of %ux%u×%d does not fit a buffer of %zu bytes",
                 cinfo.output_width, cinfo.output_height, cinfo.output_components, pixelsLength);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW rows[16];
        JDIMENSION count = cinfo.output_height - cinfo.output_scanline;
        if (count > 16) {
            count = 16;
        }
        for (JDIMENSION i = 0; i < count; i++) {
            rows[i] = pixels + (size_t)(cinfo.output_scanline + i) * stride;
        }
        jpeg_read_scanlines(&cinfo, rows, count);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}
