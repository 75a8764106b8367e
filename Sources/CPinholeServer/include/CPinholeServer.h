// CPinholeServer: a tiny C shim between Swift and libmicrohttpd 0.9.75 (the HTTP server of `pinhole serve`).
//
// Why it exists:
// - MHD_start_daemon takes its options through `...` (option, value pairs ended by MHD_OPTION_END), which Swift
//   cannot call; CPinholeServer_start fixes every value's type.
// - MHD_get_daemon_info and MHD_get_connection_info return a union of pointers; the two readers below pick the
//   member in C, so Swift never depends on that layout.
//
// Every symbol is prefixed CPinholeServer_.
#ifndef CPINHOLESERVER_H
#define CPINHOLESERVER_H

#include <stddef.h>
#include <stdint.h>
#include <microhttpd.h>

/// What CPinholeServer_start sets up.
typedef struct {
    /// A numeric IPv4 or IPv6 address to listen on ("127.0.0.1", "::1", "0.0.0.0", "::").
    const char *host;
    /// The TCP port; 0 lets the kernel choose one (read it back with CPinholeServer_port).
    uint16_t port;
    /// Polling threads (each runs its own epoll loop); at least 1.
    unsigned int threads;
    /// The most connections open at once; further ones are refused by libmicrohttpd.
    unsigned int connection_limit;
    /// The most connections open at once from one client address, beyond which libmicrohttpd closes a new one
    /// without an answer (0: no limit of its own).
    unsigned int per_address_connection_limit;
    /// Seconds a connection may stay idle (a slow client, a kept-alive connection) before it is closed.
    unsigned int idle_timeout_seconds;
    /// Bytes of memory per connection: the request line and headers must fit (libmicrohttpd answers 414 or 431).
    size_t connection_memory_limit;
} CPinholeServer_settings;

/// Called with the request target exactly as the client sent it (path and query, nothing decoded), before the
/// headers are read; what it returns is the request's `*req_cls` in `handler` and `completed`.
typedef void *(*CPinholeServer_target_callback)(void *context, const char *target, struct MHD_Connection *connection);

/// Starts a daemon with internal polling threads, epoll, suspend/resume, address reuse; `target` opens each
/// request, `handler` answers it, `completed` closes it (also when the client went away or the head was too
/// large), `connection` is told of each connection opened and closed (its `*socket_context` is the caller's).
/// All four get `context`. Returns NULL on failure with errno set (EADDRINUSE, EINVAL for a host that is not a
/// numeric address).
struct MHD_Daemon *CPinholeServer_start(
    const CPinholeServer_settings *settings, CPinholeServer_target_callback target,
    MHD_AccessHandlerCallback handler, MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback connection,
    void *context);

/// The `*socket_context` the connection callback left for `connection`, or NULL.
void *CPinholeServer_socket_context(struct MHD_Connection *connection);

/// The port the daemon listens on (useful after port 0), or 0.
uint16_t CPinholeServer_port(struct MHD_Daemon *daemon);

/// Writes the client's numeric address (inet_ntop) into `buffer`; returns 0, or -1 when unknown.
int CPinholeServer_client_address(struct MHD_Connection *connection, char *buffer, size_t length);

#endif
