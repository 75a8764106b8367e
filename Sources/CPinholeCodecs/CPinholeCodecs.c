// CPinholeCodecs: see include/CPinholeCodecs.h for why each wrapper exists.
#include "CPinholeCodecs.h"

#include <gif_lib.h>
#include <libheif/heif.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>

// MARK: - GIF (giflib)

/// The bytes giflib reads from, and whether it ever asked for more than there was.
typedef struct {
    const unsigned char *data;
    size_t length;
    size_t position;
    int ran_out;
} GifSource;

static int gif_read(GifFileType *gif, GifByteType *destination, int count) {
    GifSource *source = gif->UserData;
    size_t wanted = count > 0 ? (size_t)count : 0;
    size_t available = source->length - source->position;
    size_t taken = wanted < available ? wanted : available;
    if (taken < wanted) {
        source->ran_out = 1;
    }
    memcpy(destination, source->data + source->position, taken);
    source->position += taken;
    return (int)taken;
}

/// Skips the sub-blocks that follow an image descriptor or an extension (giflib hands them over raw).
static int gif_skip_image(GifFileType *gif) {
    int code_size = 0;
    GifByteType *block = NULL;
    if (DGifGetImageDesc(gif) == GIF_ERROR || DGifGetCode(gif, &code_size, &block) == GIF_ERROR) {
        return GIF_ERROR;
    }
    while (block != NULL) {
        if (DGifGetCodeNext(gif, &block) == GIF_ERROR) {
            return GIF_ERROR;
        }
    }
    return GIF_OK;
}

static int gif_skip_extension(GifFileType *gif) {
    int code = 0;
    GifByteType *block = NULL;
    if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) {
        return GIF_ERROR;
    }
    while (block != NULL) {
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) {
            return GIF_ERROR;
        }
    }
    return GIF_OK;
}

int CPinholeCodecs_gif_ends_early(const void *buf, size_t len) {
    int ends_early = 0;
    int frames = CPinholeCodecs_gif_whole_frames(buf, len, &ends_early);
    if (frames < 0 && !ends_early) {
        return -1;
    }
    return ends_early;
}

int CPinholeCodecs_gif_whole_frames(const void *buf, size_t len, int *ends_early) {
    GifSource source = {buf, len, 0, 0};
    int error = 0;
    int frames = 0;
    int complete = 0;
    GifFileType *gif = DGifOpen(&source, gif_read, &error);
    if (gif == NULL) {
        if (ends_early != NULL) {
            *ends_early = source.ran_out ? 1 : 0;
        }
        return -1;
    }
    for (;;) {
        GifRecordType type = UNDEFINED_RECORD_TYPE;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) {
            break;
        }
        if (type == TERMINATE_RECORD_TYPE) {
            complete = 1;
            break;
        }
        int status = GIF_ERROR;
        if (type == IMAGE_DESC_RECORD_TYPE) {
            status = gif_skip_image(gif);
            if (status != GIF_ERROR) {
                frames += 1;
            }
        } else if (type == EXTENSION_RECORD_TYPE) {
            status = gif_skip_extension(gif);
        }
        if (status == GIF_ERROR) {
            break;
        }
    }
    if (ends_early != NULL) {
        *ends_early = !complete && source.ran_out ? 1 : 0;
    }
    DGifCloseFile(gif, &error);
    return complete || source.ran_out ? frames : -1;
}

// MARK: - WebP (libwebpdemux)

int CPinholeCodecs_webp_ends_early(const void *buf, size_t len) {
    WebPData data = {buf, len};
    WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
    WebPDemuxer *demuxer = WebPDemuxPartial(&data, &state);
    WebPDemuxDelete(demuxer);
    switch (state) {
    case WEBP_DEMUX_DONE:
        return 0;
    case WEBP_DEMUX_PARSING_HEADER:
    case WEBP_DEMUX_PARSED_HEADER:
        return 1;
    default:
        return -1;
    }
}

int CPinholeCodecs_webp_is_lossless(const void *buf, size_t len) {
    WebPData data = {buf, len};
    WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
    WebPDemuxer *demuxer = WebPDemuxPartial(&data, &state);
    if (demuxer == NULL) {
        return -1;
    }
    int lossless = 0;
    int seen = 0;
    WebPIterator frame;
    if (WebPDemuxGetFrame(demuxer, 1, &frame)) {
        do {
            WebPBitstreamFeatures features;
            if (WebPGetFeatures(frame.fragment.bytes, frame.fragment.size, &features) == VP8_STATUS_OK) {
                seen = 1;
                lossless = features.format == 2;
            }
        } while (!lossless && WebPDemuxNextFrame(&frame));
        WebPDemuxReleaseIterator(&frame);
    }
    WebPDemuxDelete(demuxer);
    return seen ? lossless : -1;
}

// MARK: - HEIF and AVIF (libheif)

int CPinholeCodecs_heif_ends_early(const void *buf, size_t len, long long max_pixels) {
    struct heif_context *context = heif_context_alloc();
    if (context == NULL) {
        return -1;
    }
    struct heif_error error = heif_context_read_from_memory_without_copy(context, buf, len, NULL);
    if (error.code == heif_error_Ok) {
        struct heif_image_handle *handle = NULL;
        error = heif_context_get_primary_image_handle(context, &handle);
        long long pixels = error.code == heif_error_Ok
                               ? (long long)heif_image_handle_get_width(handle) * heif_image_handle_get_height(handle)
                               : 0;
        if (error.code == heif_error_Ok && pixels > max_pixels) {
            heif_image_handle_release(handle);
            heif_context_free(context);
            return -1;
        }
        if (error.code == heif_error_Ok) {
            struct heif_image *image = NULL;
            error = heif_decode_image(handle, &image, heif_colorspace_undefined, heif_chroma_undefined, NULL);
            if (image != NULL) {
                heif_image_release(image);
            }
            heif_image_handle_release(handle);
        }
    }
    heif_context_free(context);
    if (error.code == heif_error_Ok) {
        return 0;
    }
    return error.subcode == heif_suberror_End_of_data ? 1 : -1;
}
