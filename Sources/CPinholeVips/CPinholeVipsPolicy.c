// CPinholeVips, untrusted input and colour profiles: see include/CPinholeVipsPolicy.h.
#include "CPinholeVipsPolicy.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

// Guards our reads and writes of operation classes' flags: the untrusted bit and the blocked bit share one word,
// which CPinholeVips_set_untrusted_blocked writes while other threads may be looking up a loader. (libvips reads a
// class's blocked bit only when it builds that operation; UntrustedLoaderGate keeps those builds apart from the
// writes.)
static pthread_mutex_t flags_lock = PTHREAD_MUTEX_INITIALIZER;

int CPinholeVips_find_loader(const void *buf, size_t len, char *name, size_t name_len, int *untrusted) {
    *untrusted = 0;
    if (name_len > 0) {
        name[0] = '\0';
    }
    const char *class_name = vips_foreign_find_load_buffer(buf, len);
    if (class_name == NULL) {
        return -1;
    }
    GType type = g_type_from_name(class_name);
    if (type == 0 || !g_type_is_a(type, VIPS_TYPE_OPERATION)) {
        return -1;
    }
    VipsOperationClass *class = g_type_class_ref(type);
    pthread_mutex_lock(&flags_lock);
    *untrusted = (class->flags & VIPS_OPERATION_UNTRUSTED) != 0;
    pthread_mutex_unlock(&flags_lock);
    if (name_len > 0) {
        snprintf(name, name_len, "%s", VIPS_OBJECT_CLASS(class)->nickname);
    }
    g_type_class_unref(class);
    return 0;
}

void CPinholeVips_set_untrusted_blocked(int blocked) {
    pthread_mutex_lock(&flags_lock);
    vips_block_untrusted_set(blocked ? TRUE : FALSE);
    if (blocked) {
        vips_operation_block_set("VipsForeignLoadSvg", FALSE);
    }
    pthread_mutex_unlock(&flags_lock);
}

int CPinholeVips_operation_blocked(const char *nickname) {
    GType type = vips_type_find("VipsOperation", nickname);
    if (type == 0) {
        return -1;
    }
    VipsOperationClass *class = g_type_class_ref(type);
    pthread_mutex_lock(&flags_lock);
    int blocked = (class->flags & VIPS_OPERATION_BLOCKED) != 0;
    pthread_mutex_unlock(&flags_lock);
    g_type_class_unref(class);
    return blocked;
}

int CPinholeVips_profile_fit(VipsImage *image, char space[5]) {
    memset(space, 0, 5);
    const void *data = NULL;
    size_t length = 0;
    if (!vips_image_get_typeof(image, VIPS_META_ICC_NAME) ||
        vips_image_get_blob(image, VIPS_META_ICC_NAME, &data, &length) || data == NULL) {
        return CPinholeVips_profile_none;
    }
    if (length >= 20) {
        // Kept only when it looks like a signature (letters, digits, spaces): a broken profile holds anything.
        const unsigned char *signature = (const unsigned char *)data + 16;
        int printable = 1;
        for (int i = 0; i < 4; i++) {
            printable &= g_ascii_isalnum(signature[i]) || signature[i] == ' ';
        }
        if (printable) {
            memcpy(space, signature, 4);
        }
    }
    if (!vips_icc_is_compatible_profile(image, data, length)) {
        return CPinholeVips_profile_broken;
    }
    int cmyk = image->Type == VIPS_INTERPRETATION_CMYK;
    int grey = image->Bands <= 2;
    int fits = (strcmp(space, "GRAY") == 0 && grey) || (strcmp(space, "RGB ") == 0 && !grey && !cmyk) ||
               (strcmp(space, "CMYK") == 0 && cmyk);
    return fits ? CPinholeVips_profile_fits : CPinholeVips_profile_mismatch;
}

int CPinholeVips_thumbnail_ignoring_profile(const void *buf, size_t len, int jpeg_shrink, int width, int height,
                                            int size, int no_rotate, const char *option_string, VipsImage **out) {
    const char *options = option_string ? option_string : "";
    VipsImage *loaded = jpeg_shrink > 1
        ? vips_image_new_from_buffer(buf, len, options, "access", VIPS_ACCESS_SEQUENTIAL, "shrink", jpeg_shrink, NULL)
        : vips_image_new_from_buffer(buf, len, options, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (loaded == NULL) {
        return -1;
    }
    VipsImage *bare = NULL;
    if (vips_copy(loaded, &bare, NULL)) {
        g_object_unref(loaded);
        return -1;
    }
    g_object_unref(loaded);
    vips_image_remove(bare, VIPS_META_ICC_NAME);
    const char *profile = bare->Type == VIPS_INTERPRETATION_CMYK ? "cmyk" : NULL;
    int status = vips_thumbnail_image(bare, out, width,
                                      "height", height,
                                      "size", (VipsSize)size,
                                      "no_rotate", no_rotate ? TRUE : FALSE,
                                      "import_profile", profile,
                                      "export_profile", profile ? "srgb" : NULL,
                                      NULL);
    g_object_unref(bare);
    return status;
}
