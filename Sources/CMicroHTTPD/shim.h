// GNU libmicrohttpd (Debian: libmicrohttpd-dev, found through pkg-config "libmicrohttpd"): the HTTP/1.1 server
// behind `pinhole serve`.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>
