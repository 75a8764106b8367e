// The libcurl C API (Debian: libcurl4-openssl-dev, found through pkg-config "libcurl"): Pinhole's HTTP transport.
#include <curl/curl.h>
