// The libvips C API (Debian: libvips-dev, found through pkg-config "vips").
#include <vips/vips.h>
