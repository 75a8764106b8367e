// CPinholeCurl: a tiny C shim between Swift and libcurl 7.88 (the HTTP transport of Pinhole's HTTPDataLoader).
//
// Why it exists (each wrapper below falls in one of these groups):
// - Variadic calls: curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo take their value through `...`,
//   and Swift cannot call C variadic functions. Each wrapper fixes the value's type (long, curl_off_t, string,
//   pointer, or one callback type), so the value is passed exactly as libcurl reads it with va_arg.
// - Socket addresses: CURLOPT_OPENSOCKETFUNCTION hands over a struct curl_sockaddr whose `addr` member is
//   really a sockaddr_in or sockaddr_in6 (`addrlen` bytes). CPinholeCurl_sockaddr_ip reads it in C, so Swift never
//   depends on that layout; CPinholeCurl_open_socket then opens the socket exactly as libcurl would have, for an
//   address Swift has accepted.
//
// Every symbol is prefixed CPinholeCurl_. Return values are libcurl's own codes unless documented otherwise.
#ifndef CPINHOLECURL_H
#define CPINHOLECURL_H

#include <curl/curl.h>

// MARK: - curl_easy_setopt, one value type per wrapper

/// curl_easy_setopt for options of type long (CURLOPTTYPE_LONG, including the 0/1 switches).
CURLcode CPinholeCurl_easy_setopt_long(CURL *easy, CURLoption option, long value);

/// curl_easy_setopt for options of type curl_off_t (CURLOPTTYPE_OFF_T, the *_LARGE options).
CURLcode CPinholeCurl_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value);

/// curl_easy_setopt for string options (CURLOPTTYPE_STRINGPOINT). libcurl copies the string (7.17.0 and later).
CURLcode CPinholeCurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value);

/// curl_easy_setopt for pointer options: callback data (CURLOPTTYPE_CBPOINT), the error buffer, and
/// curl_slist lists (CURLOPTTYPE_SLISTPOINT). The pointee must outlive the easy handle's use of it.
CURLcode CPinholeCurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);

/// curl_easy_setopt for CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION (both take a curl_write_callback).
CURLcode CPinholeCurl_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback callback);

/// curl_easy_setopt(CURLOPT_XFERINFOFUNCTION).
CURLcode CPinholeCurl_easy_setopt_xferinfo_callback(CURL *easy, curl_xferinfo_callback callback);

/// curl_easy_setopt(CURLOPT_OPENSOCKETFUNCTION).
CURLcode CPinholeCurl_easy_setopt_opensocket_callback(CURL *easy, curl_opensocket_callback callback);

// MARK: - curl_multi_setopt

/// curl_multi_setopt for options of type long (CURLMOPT_MAX_HOST_CONNECTIONS, CURLMOPT_PIPELINING, ...).
CURLMcode CPinholeCurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

// MARK: - curl_easy_getinfo, one result type per wrapper

/// curl_easy_getinfo for CURLINFO_LONG values (CURLINFO_RESPONSE_CODE, ...).
CURLcode CPinholeCurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);

/// curl_easy_getinfo for CURLINFO_OFF_T values (CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, ...).
CURLcode CPinholeCurl_easy_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value);

/// curl_easy_getinfo for CURLINFO_STRING values (CURLINFO_EFFECTIVE_URL, ...). `*value` points into the easy
/// handle's memory (valid until the handle is cleaned up) and may be NULL.
CURLcode CPinholeCurl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value);

// MARK: - Socket-open check

/// Reads the IP address and port libcurl is about to connect to. Writes 4 (IPv4) or 16 (IPv6) bytes in network
/// order to `bytes` and the port to `*port`; returns 4 or 6 (the IP version), or 0 for any other family (a Unix
/// socket) or a malformed address, which callers refuse.
int CPinholeCurl_sockaddr_ip(const struct curl_sockaddr *address, unsigned char bytes[16], unsigned short *port);

/// Opens the socket libcurl asked for: socket(family, socktype, protocol), close-on-exec. Returns
/// CURL_SOCKET_BAD when the system refuses (libcurl then tries the host's next address).
curl_socket_t CPinholeCurl_open_socket(const struct curl_sockaddr *address);

#endif
