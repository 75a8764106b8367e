/* Writes many-scans-2048.jpg: a flat grey 2048x2048 progressive JPEG with 1,891 valid scans (one DC scan, then
 * every AC coefficient of every component alone, first at Al = 9 and refined bit by bit to Al = 0).
 * Build and run: cc many-scans.c -ljpeg -o many-scans && ./many-scans many-scans-2048.jpg 2048 */
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    int side = atoi(argv[2]);
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e);
    jpeg_create_compress(&c);
    FILE *file = fopen(argv[1], "wb");
    if (!file) return 1;
    jpeg_stdio_dest(&c, file);
    c.image_width = side;
    c.image_height = side;
    c.input_components = 3;
    c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, 90, TRUE);
    jpeg_scan_info *scans = calloc(1 + 3 * 63 * 10, sizeof *scans);
    int n = 0;
    scans[n].comps_in_scan = 3;
    for (int i = 0; i < 3; i++) scans[n].component_index[i] = i;
    n++;
    for (int component = 0; component < 3; component++) {
        for (int k = 1; k < 64; k++) {
            for (int al = 9; al >= 0; al--) {
                jpeg_scan_info *s = &scans[n++];
                s->comps_in_scan = 1;
                s->component_index[0] = component;
                s->Ss = k;
                s->Se = k;
                s->Ah = al == 9 ? 0 : al + 1;
                s->Al = al;
            }
        }
    }
    c.scan_info = scans;
    c.num_scans = n;
    c.optimize_coding = TRUE;
    jpeg_start_compress(&c, TRUE);
    JSAMPLE *row = malloc(side * 3);
    for (int x = 0; x < side * 3; x++) row[x] = 128;
    for (int y = 0; y < side; y++) jpeg_write_scanlines(&c, &row, 1);
    jpeg_finish_compress(&c);
    fclose(file);
    return 0;
}
