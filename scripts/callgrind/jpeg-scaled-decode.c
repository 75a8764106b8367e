// Decodes a JPEG file at 1/8 scale with libjpeg (block smoothing off, RGB out) and discards the pixels: the
// decode CPinholeJPEG_decode does, as a plain C program that valgrind's callgrind can count (it cannot run the
// Swift binary). Used by scripts/callgrind-dc-only.sh on a whole progressive JPEG and on the stream DC-only
// decoding gives libjpeg (`pinhole debug dc-only-stream`).
//
//   cc -O2 jpeg-scaled-decode.c -ljpeg -o jpeg-scaled-decode && ./jpeg-scaled-decode FILE
#include <stdio.h>
#include <stdlib.h>

#include <jpeglib.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.jpg\n", argv[0]);
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (file == NULL) {
        perror(argv[1]);
        return 1;
    }
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr errors;
    cinfo.err = jpeg_std_error(&errors);  // a fatal error exits the program: fine for a measurement
    jpeg_create_decompress(&cinfo);
    jpeg_stdio_src(&cinfo, file);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = 8;
    cinfo.do_block_smoothing = FALSE;
    cinfo.out_color_space = cinfo.num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_start_decompress(&cinfo);
    JSAMPROW row = malloc((size_t)cinfo.output_width * (size_t)cinfo.output_components);
    while (cinfo.output_scanline < cinfo.output_height) {
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    printf("%s: %ux%u, %ld warnings\n", argv[1], cinfo.output_width, cinfo.output_height, errors.num_warnings);
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(row);
    fclose(file);
    return 0;
}
