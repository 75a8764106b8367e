// libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev). It has no variadic calls and reports errors by
// return value (no setjmp on our side), so Swift calls it directly.
#include <turbojpeg.h>
