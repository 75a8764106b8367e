#include "CPinholeVips.h"
#include <vips/vips.h>
int CPinholeVips_init(void) { return VIPS_INIT("pinhole"); }
