// libjpeg's API from libjpeg-turbo (Debian: libjpeg62-turbo-dev), for the CPinholeJPEG shim only: Swift never calls
// it directly (errors arrive by longjmp). jpeglib.h needs <stdio.h> (FILE, size_t) first.
#include <stdio.h>
#include <jpeglib.h>
