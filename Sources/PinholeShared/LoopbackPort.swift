import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP port on 127.0.0.1 that was free a moment ago: the kernel picks it for a socket bound to port 0, which
/// is then closed (a child process listens on it next; another program could take it in between, which the
/// child then reports as a failure to listen). Used by the benchmarks and by tests that start nginx.
package enum LoopbackPort {
    /// A system call failed; `description` names it and gives `strerror`.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// - Throws: ``Failure`` when no socket can be made or bound.
    package static func free() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket(): \(String(cString: strerror(errno)))") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "bind(127.0.0.1:0): \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
