import Glibc

/// Thin wrappers over the POSIX socket calls the server needs. Every descriptor is close-on-exec.
enum Socket {
    /// `POLLRDHUP` (the peer shut down its writing side); Glibc only exports it under `_GNU_SOURCE`.
    static let pollReadHangUp: Int16 = 0x2000

    /// A non-blocking TCP listener on 127.0.0.1 with a port chosen by the system; returns (fd, port).
    static func listenOnLoopback(backlog: Int32 = 512) throws(SystemError) -> (Int32, Int) {
        let fd = socket(
            AF_INET,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SystemError(operation: "socket", code: errno) }
        do throws(SystemError) {
            setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw SystemError(operation: "bind", code: errno) }
            guard listen(fd, backlog) == 0 else { throw SystemError(operation: "listen", code: errno) }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else { throw SystemError(operation: "getsockname", code: errno) }
            return (fd, Int(UInt16(bigEndian: address.sin_port)))
        } catch {
            close(fd)
            throw error
        }
    }

    /// Accepts one pending connection as a non-blocking, close-on-exec socket with `TCP_NODELAY`.
    /// Returns nil when none is pending (or the error was transient); a failure for errors worth backing off on.
    ///
    /// - Note: `accept4` is a GNU extension Swift's Glibc module does not export, so the flags are set right
    ///   after `accept`; a `fork` in that instant could inherit the socket, which a test server can live with.
    static func accept(_ listener: Int32) -> Result<Int32?, SystemError> {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
                return .success(fd)
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return .success(nil)
            default: return .failure(SystemError(operation: "accept4", code: errno))
            }
        }
    }

    /// A connected socket pair whose `read` end every server thread polls; closing the `write` end wakes them
    /// all at once for `stop()` (a socket pair rather than `pipe2`, which Swift's Glibc module does not export).
    static func makeWakePipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw SystemError(operation: "socketpair", code: errno) }
        return (fds[0], fds[1])
    }

    /// Makes the next `close` send RST instead of FIN.
    static func setResetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// `poll` on `fd` and the wake pipe; retries on `EINTR`. `timeout` in milliseconds, -1 for none.
    /// Returns the revents of `fd` and whether the server is stopping.
    static func poll(_ fd: Int32, events: Int16, wakeFD: Int32, timeout: Int32) -> (revents: Int16, stopping: Bool) {
        var fds = [
            pollfd(fd: fd, events: events, revents: 0),
            pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let count = Glibc.poll(&fds, 2, timeout)
            if count < 0 && errno == EINTR { continue }
            return (fds[0].revents, fds[1].revents != 0)
        }
    }
}
