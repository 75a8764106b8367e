// CPinholeCurl: see include/CPinholeCurl.h for why each wrapper exists.
#include "CPinholeCurl.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

CURLcode CPinholeCurl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode CPinholeCurl_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode CPinholeCurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode CPinholeCurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode CPinholeCurl_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

CURLcode CPinholeCurl_easy_setopt_xferinfo_callback(CURL *easy, curl_xferinfo_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode CPinholeCurl_easy_setopt_opensocket_callback(CURL *easy, curl_opensocket_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, callback);
}

CURLMcode CPinholeCurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLcode CPinholeCurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

CURLcode CPinholeCurl_easy_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

CURLcode CPinholeCurl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value) {
    char *text = NULL;
    CURLcode code = curl_easy_getinfo(easy, info, &text);
    *value = text;
    return code;
}

int CPinholeCurl_sockaddr_ip(const struct curl_sockaddr *address, unsigned char bytes[16], unsigned short *port) {
    if (address == NULL) return 0;
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        struct sockaddr_in v4;
        memcpy(&v4, &address->addr, sizeof v4);
        memcpy(bytes, &v4.sin_addr, 4);
        *port = ntohs(v4.sin_port);
        return 4;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        struct sockaddr_in6 v6;
        memcpy(&v6, &address->addr, sizeof v6);
        memcpy(bytes, &v6.sin6_addr, 16);
        *port = ntohs(v6.sin6_port);
        return 6;
    }
    return 0;
}

curl_socket_t CPinholeCurl_open_socket(const struct curl_sockaddr *address) {
    int fd = socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
    return fd < 0 ? CURL_SOCKET_BAD : fd;
}
