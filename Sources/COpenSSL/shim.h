// OpenSSL's libcrypto (Debian: libssl-dev, found through pkg-config "libcrypto"): HMAC-SHA256 for signed
// processing URLs and CRYPTO_memcmp to compare signatures in constant time.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
