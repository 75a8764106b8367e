// CPinholeVips: see include/CPinholeVips.h for why each wrapper exists.
#include "CPinholeVips.h"
#include "CPinholeVipsErrorCapture.h"
#include "CPinholeVipsOrcLock.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

// MARK: - Warning capture (bounded ring buffer, guarded by ring_lock)

#define RING_CAPACITY 64
#define RING_MESSAGE_BYTES 256

static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
static char ring[RING_CAPACITY][RING_MESSAGE_BYTES];
static int ring_head = 0;   // index of the oldest message
static int ring_count = 0;
static int ring_dropped = 0;

static void ring_push(const char *domain, const char *message) {
    pthread_mutex_lock(&ring_lock);
    if (ring_count == RING_CAPACITY) {  // full: forget the oldest
        ring_head = (ring_head + 1) % RING_CAPACITY;
        ring_count -= 1;
        ring_dropped += 1;
    }
    int slot = (ring_head + ring_count) % RING_CAPACITY;
    snprintf(ring[slot], RING_MESSAGE_BYTES, "%s: %s", domain ? domain : "GLib", message ? message : "");
    ring_count += 1;
    pthread_mutex_unlock(&ring_lock);
}

int CPinholeVips_take_warning(char *buf, size_t len) {
    int taken = 0;
    pthread_mutex_lock(&ring_lock);
    if (ring_count > 0) {
        if (len > 0) {
            snprintf(buf, len, "%s", ring[ring_head]);
        }
        ring_head = (ring_head + 1) % RING_CAPACITY;
        ring_count -= 1;
        taken = 1;
    }
    pthread_mutex_unlock(&ring_lock);
    return taken;
}

void CPinholeVips_note(const char *message) { ring_push("Pinhole", message); }

int CPinholeVips_take_dropped_warning_count(void) {
    pthread_mutex_lock(&ring_lock);
    int dropped = ring_dropped;
    ring_dropped = 0;
    pthread_mutex_unlock(&ring_lock);
    return dropped;
}

// MARK: - This thread's warnings, for the error of the decode it runs

// libvips reports some failures only as a warning: libpng's errors (vipspng.c turns them into g_warning and
// leaves the error buffer empty), so a failed PNG decode would otherwise say nothing about why. While a capture
// is open on a thread, every warning logged on that thread is kept here too (the ring above is unchanged).
// Thread-local, so one decode's error never carries another decode's words; warnings logged on libvips' own
// worker threads are not seen.

#define CAPTURE_BYTES 512

static __thread int capture_depth = 0;
static __thread size_t capture_length = 0;
static __thread char capture_text[CAPTURE_BYTES];
static __thread char capture_last[RING_MESSAGE_BYTES];

static void capture_push(const char *message) {
    if (capture_depth == 0 || message == NULL || message[0] == '\0') {
        return;
    }
    if (strncmp(capture_last, message, sizeof capture_last - 1) == 0) {
        return;  // libvips often logs the same words twice (header, then load): keep them once
    }
    snprintf(capture_last, sizeof capture_last, "%s", message);
    size_t room = sizeof capture_text - capture_length;
    if (room <= 1) {
        return;
    }
    int written = snprintf(capture_text + capture_length, room, "%s%s", capture_length > 0 ? "; " : "", message);
    if (written > 0) {
        capture_length += (size_t)written < room ? (size_t)written : room - 1;
    }
}

int CPinholeVips_capture_is_open(void) { return capture_depth > 0 ? 1 : 0; }

void CPinholeVips_capture_begin(void) {
    if (capture_depth == 0) {
        CPinholeVips_errors_reset();
        capture_length = 0;
        capture_text[0] = '\0';
        capture_last[0] = '\0';
    }
    capture_depth += 1;
}

void CPinholeVips_capture_end(void) {
    if (capture_depth > 0) {
        capture_depth -= 1;
    }
}

void CPinholeVips_captured_warnings(char *buf, size_t len) {
    if (len > 0) {
        snprintf(buf, len, "%s", capture_depth > 0 ? capture_text : "");
    }
}

static int worth_keeping(GLogLevelFlags level) {
    // Debug and info messages are dropped (GLib's default handler hides them too).
    return (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE)) != 0;
}

static void log_handler(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)data;
    if (worth_keeping(level)) {
        ring_push(domain, message);
        capture_push(message);
    }
}

static GLogWriterOutput log_writer(GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data) {
    (void)data;
    if (!worth_keeping(level)) {
        return G_LOG_WRITER_HANDLED;
    }
    const char *domain = NULL;
    const char *message = NULL;
    for (gsize i = 0; i < n_fields; i++) {
        if (strcmp(fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].length < 0) {
            domain = fields[i].value;
        } else if (strcmp(fields[i].key, "MESSAGE") == 0 && fields[i].length < 0) {
            message = fields[i].value;
        }
    }
    ring_push(domain, message);
    capture_push(message);
    return G_LOG_WRITER_HANDLED;
}

// MARK: - Initialisation

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_status = -1;

// libvips' <vips/vector.h> declares these, but it is not part of <vips/vips.h> and needs ORC's headers; the two
// functions are plain public symbols of libvips 8.14.
gboolean vips_vector_isenabled(void);
void vips_vector_set_enabled(gboolean enabled);

static void init_everything(void) {
    // Handlers first, so that nothing libvips says while starting reaches stderr.
    GLogLevelFlags all = G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION;
    g_log_set_default_handler(log_handler, NULL);
    const char *domains[] = {"VIPS", "GLib", "GLib-GObject", "GModule", "GLib-GIO"};
    for (size_t i = 0; i < sizeof domains / sizeof domains[0]; i++) {
        g_log_set_handler(domains[i], all, log_handler, NULL);
    }
    g_log_set_writer_func(log_writer, NULL, NULL);

    init_status = VIPS_INIT("pinhole");
    if (init_status == 0) {
        vips_cache_set_max(0);       // thumbnails are never reused: the operation cache only costs memory
        vips_concurrency_set(1);     // we parallelise across images, not inside one
        // ORC's run-time compiled SIMD paths stay on (libvips' default unless VIPS_NOVECTOR=1) only where every ORC
        // program is compiled and freed under CPinholeVipsOrcLock.c's lock: liborc 0.4.33's code memory is not
        // thread-safe, and libvips 8.14 builds and frees a program per lanczos reduce, from any thread. Unlocked,
        // that corrupted liborc's chunk lists in about 2 % of `pinhole debug storm` runs (RELIABILITY.md
        // section 4). Off, the reduce runs libvips' C path: 12-18 % more CPU per thumbnail (BENCHMARKS.md).
        if (!CPinholeVips_orc_lock_installed()) {
            vips_vector_set_enabled(FALSE);
        }
    }
}

int CPinholeVips_vector_enabled(void) { return vips_vector_isenabled() ? 1 : 0; }

int CPinholeVips_init(void) {
    pthread_once(&init_once, init_everything);
    return init_status;
}

const char *CPinholeVips_version(void) { return vips_version_string(); }

// MARK: - Decoding

int CPinholeVips_read_header(const void *buf, size_t len, CPinholeVips_Header *out) {
    memset(out, 0, sizeof *out);
    const char *loader = vips_foreign_find_load_buffer(buf, len);
    if (loader == NULL) {
        return -1;
    }
    snprintf(out->loader, sizeof out->loader, "%s", loader);
    VipsImage *image = vips_image_new_from_buffer(buf, len, "", NULL);
    if (image == NULL) {
        return -1;
    }
    out->width = image->Xsize;
    out->height = vips_image_get_page_height(image);
    out->bands = image->Bands;
    out->interpretation = image->Type;
    out->format = image->BandFmt;
    out->orientation = vips_image_get_orientation(image);
    out->pages = vips_image_get_n_pages(image);
    out->hasAlpha = vips_image_hasalpha(image);
    out->hasICC = vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0;
    out->iccFit = CPinholeVips_profile_fit(image, out->iccSpace);
    out->sampleBytes = (int)vips_format_sizeof(image->BandFmt);
    int interlaced = 0;
    if (vips_image_get_typeof(image, "interlaced") != 0 && vips_image_get_int(image, "interlaced", &interlaced) == 0) {
        out->interlaced = interlaced != 0;
    }
    g_object_unref(image);
    return 0;
}

int CPinholeVips_read_animation(const void *buf, size_t len, int *delays, int capacity, int *delay_count, int *loop) {
    *delay_count = 0;
    *loop = 0;
    VipsImage *image = vips_image_new_from_buffer(buf, len, "", NULL);
    if (image == NULL) {
        return -1;
    }
    int *array = NULL;
    int count = 0;
    if (vips_image_get_typeof(image, "delay") != 0 && vips_image_get_array_int(image, "delay", &array, &count) == 0) {
        *delay_count = count;
        for (int i = 0; i < count && i < capacity; i++) {
            delays[i] = array[i];
        }
    }
    int value = 0;
    if (vips_image_get_typeof(image, "loop") != 0 && vips_image_get_int(image, "loop", &value) == 0) {
        *loop = value;
    }
    g_object_unref(image);
    return 0;
}

int CPinholeVips_load_pages(const void *buf, size_t len, int page, int n, const char *option_string, VipsImage **out) {
    *out = vips_image_new_from_buffer(buf, len, option_string != NULL ? option_string : "", "page", page, "n", n,
                                      NULL);
    return *out == NULL ? -1 : 0;
}

int CPinholeVips_thumbnail(const void *buf, size_t len, int width, int height, int size, int no_rotate,
                           const char *import_profile, const char *export_profile, const char *option_string,
                           VipsImage **out) {
    return vips_thumbnail_buffer((void *)buf, len, out, width,
                                 "height", height,
                                 "size", (VipsSize)size,
                                 "no_rotate", no_rotate ? TRUE : FALSE,
                                 "import_profile", import_profile,
                                 "export_profile", export_profile,
                                 "option_string", option_string,
                                 NULL);
}

int CPinholeVips_thumbnail_pixels(const void *data, size_t len, int width, int height, int bands, int orientation,
                                  int box_width, int box_height, VipsImage **out) {
    VipsImage *image = vips_image_new_from_memory(data, len, width, height, bands, VIPS_FORMAT_UCHAR);
    if (image == NULL) {
        return -1;
    }
    image->Type = bands < 3 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
    if (orientation > 1) {
        vips_image_set_int(image, VIPS_META_ORIENTATION, orientation);
    }
    int status = vips_thumbnail_image(image, out, box_width, "height", box_height, "size", VIPS_SIZE_FORCE, NULL);
    g_object_unref(image);
    return status;
}

static VipsInterpretation source_space(const VipsImage *in) {
    int wide = in->BandFmt == VIPS_FORMAT_USHORT;
    if (in->Bands <= 2) {
        return wide ? VIPS_INTERPRETATION_GREY16 : VIPS_INTERPRETATION_B_W;
    }
    if (vips_colourspace_issupported(in) && in->Type != VIPS_INTERPRETATION_MULTIBAND) {
        return in->Type;
    }
    return wide ? VIPS_INTERPRETATION_RGB16 : VIPS_INTERPRETATION_sRGB;
}

int CPinholeVips_to_srgb8(VipsImage *in, VipsImage **out) {
    VipsImage *current = in;
    g_object_ref(current);
    VipsInterpretation target = in->Bands == 1 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
    VipsInterpretation source = source_space(in);
    if (source != target || in->BandFmt != VIPS_FORMAT_UCHAR) {
        VipsImage *converted = NULL;
        if (vips_colourspace(current, &converted, target, "source_space", source, NULL)) {
            g_object_unref(current);
            return -1;
        }
        g_object_unref(current);
        current = converted;
    }
    if (current->BandFmt != VIPS_FORMAT_UCHAR) {
        VipsImage *cast = NULL;
        if (vips_cast_uchar(current, &cast, NULL)) {
            g_object_unref(current);
            return -1;
        }
        g_object_unref(current);
        current = cast;
    }
    if (current->Bands > 4 || current->Bands == 2) {
        int keep = current->Bands == 2 ? 1 : (vips_image_hasalpha(current) ? 4 : 3);
        VipsImage *extracted = NULL;
        if (vips_extract_band(current, &extracted, 0, "n", keep, NULL)) {
            g_object_unref(current);
            return -1;
        }
        g_object_unref(current);
        current = extracted;
    }
    *out = current;
    return 0;
}

int CPinholeVips_width(const VipsImage *image) { return image->Xsize; }
int CPinholeVips_height(const VipsImage *image) { return image->Ysize; }
int CPinholeVips_bands(const VipsImage *image) { return image->Bands; }

int CPinholeVips_copy_pixels(VipsImage *image, unsigned char *dst, size_t len) {
    size_t needed = VIPS_IMAGE_SIZEOF_LINE(image) * (size_t)image->Ysize;
    if (needed != len) {
        vips_error("CPinholeVips", "pixel buffer has %zu bytes, image needs %zu", len, needed);
        return -1;
    }
    // A memory image over the caller's buffer: libvips writes the pixels straight into it (vips_sink_memory).
    // The writes happen inside libvips, whose threads hand work over with GLib's futex-based locks.
    VipsImage *target = vips_image_new_from_memory(dst, len, image->Xsize, image->Ysize, image->Bands,
                                                   image->BandFmt);
    if (target == NULL) {
        return -1;
    }
    int status = vips_image_write(image, target);
    g_object_unref(target);
    return status;
}

// MARK: - Encoding and composition

int CPinholeVips_image_from_pixels(const void *data, size_t len, int width, int height, int bands,
                                   VipsImage **out) {
    VipsImage *image = vips_image_new_from_memory_copy(data, len, width, height, bands, VIPS_FORMAT_UCHAR);
    if (image == NULL) {
        return -1;
    }
    image->Type = bands < 3 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
    *out = image;
    return 0;
}

int CPinholeVips_flatten(VipsImage *in, const double *background, int count, VipsImage **out) {
    VipsArrayDouble *colour = vips_array_double_new(background, count);
    int status = vips_flatten(in, out, "background", colour, NULL);
    vips_area_unref(VIPS_AREA(colour));
    return status;
}

int CPinholeVips_thumbnail_image(VipsImage *in, int width, int height, VipsImage **out) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_DOWN, NULL);
}

int CPinholeVips_centre(VipsImage *in, int width, int height, const double *background, int count,
                        VipsImage **out) {
    VipsArrayDouble *colour = vips_array_double_new(background, count);
    int status = vips_gravity(in, out, VIPS_COMPASS_DIRECTION_CENTRE, width, height,
                              "extend", VIPS_EXTEND_BACKGROUND, "background", colour, NULL);
    vips_area_unref(VIPS_AREA(colour));
    return status;
}

int CPinholeVips_embed(VipsImage *in, int x, int y, int width, int height, const double *background,
                       int count, VipsImage **out) {
    VipsArrayDouble *colour = vips_array_double_new(background, count);
    int status = vips_embed(in, out, x, y, width, height,
                            "extend", VIPS_EXTEND_BACKGROUND, "background", colour, NULL);
    vips_area_unref(VIPS_AREA(colour));
    return status;
}

int CPinholeVips_arrayjoin(VipsImage **in, int n, int across, int shim, const double *background, int count,
                           VipsImage **out) {
    VipsArrayDouble *colour = vips_array_double_new(background, count);
    int status = vips_arrayjoin(in, out, n, "across", across, "shim", shim, "background", colour,
                                "halign", VIPS_ALIGN_CENTRE, "valign", VIPS_ALIGN_CENTRE, NULL);
    vips_area_unref(VIPS_AREA(colour));
    return status;
}

int CPinholeVips_text(const char *text, int dpi, VipsImage **out) {
    return vips_text(out, text, "dpi", dpi, NULL);
}

int CPinholeVips_jpegsave(VipsImage *in, int quality, void **buf, size_t *len) {
    return vips_jpegsave_buffer(in, buf, len, "Q", quality, "strip", TRUE, NULL);
}

int CPinholeVips_pngsave(VipsImage *in, void **buf, size_t *len) {
    return vips_pngsave_buffer(in, buf, len, "strip", TRUE, NULL);
}

int CPinholeVips_webpsave(VipsImage *in, int quality, void **buf, size_t *len) {
    return vips_webpsave_buffer(in, buf, len, "Q", quality, "strip", TRUE, NULL);
}

int CPinholeVips_avifsave(VipsImage *in, int quality, void **buf, size_t *len) {
    return vips_heifsave_buffer(in, buf, len, "Q", quality, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1,
        "effort", 2, "strip", TRUE, NULL);
}

int CPinholeVips_gifsave(VipsImage *in, void **buf, size_t *len) {
    return vips_gifsave_buffer(in, buf, len, "strip", TRUE, NULL);
}

int CPinholeVips_animation_save(VipsImage *stack, int page_height, const int *delays, int count, int loop, int webp,
                                int quality, void **buf, size_t *len) {
    VipsImage *copy;
    if (vips_copy(stack, &copy, NULL)) {
        return -1;
    }
    vips_image_set_int(copy, VIPS_META_PAGE_HEIGHT, page_height);
    vips_image_set_array_int(copy, "delay", delays, count);
    vips_image_set_int(copy, "loop", loop);
    int status = webp ? vips_webpsave_buffer(copy, buf, len, "Q", quality, "strip", TRUE, NULL)
                      : vips_gifsave_buffer(copy, buf, len, "strip", TRUE, NULL);
    g_object_unref(copy);
    return status;
}

void *CPinholeVips_icc_profile(const void *buf, size_t len, size_t *length) {
    *length = 0;
    VipsImage *image = vips_image_new_from_buffer(buf, len, "", NULL);
    if (image == NULL) {
        return NULL;
    }
    const void *profile = NULL;
    size_t size = 0;
    void *copy = NULL;
    if (vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0 &&
        vips_image_get_blob(image, VIPS_META_ICC_NAME, &profile, &size) == 0 && size > 0) {
        copy = g_memdup2(profile, size);
        *length = size;
    }
    g_object_unref(image);
    return copy;
}

int CPinholeVips_decode_only(const void *buf, size_t len, const char *option_string) {
    VipsImage *image = vips_image_new_from_buffer(buf, len, option_string, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) {
        return -1;
    }
    VipsImage *memory = vips_image_copy_memory(image);
    g_object_unref(image);
    if (memory == NULL) {
        return -1;
    }
    g_object_unref(memory);
    return 0;
}

void CPinholeVips_unref(VipsImage *image) {
    if (image != NULL) {
        g_object_unref(image);
    }
}

void CPinholeVips_free(void *pointer) { g_free(pointer); }
