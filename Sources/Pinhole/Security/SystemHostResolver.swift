// `getaddrinfo` from the platform C library: it has no Foundation equivalent on Linux (Host/CFHost resolution is
// missing or incomplete there). Glibc/Darwin are the platform libc, not a third-party dependency; the core's other
// libc calls are `realpath` (ConfinedPath.swift) and `inet_aton`/`inet_pton` (IPAddress.swift).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves host names with the system resolver (`getaddrinfo`: `/etc/hosts`, then DNS, as libcurl does).
///
/// Blocking; thread-safe (`getaddrinfo` is reentrant). Asks for TCP stream addresses of any family.
public struct SystemHostResolver: HostResolving {
    public init() {}

    /// - Throws: ``PinholeError`` with ``PinholeError/Code/networkFailure`` when `getaddrinfo` fails or finds
    ///   no IPv4 or IPv6 address.
    public func resolve(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let list else {
            let reason = String(cString: gai_strerror(status))
            throw PinholeError(.networkFailure, "cannot resolve \(host): \(reason)")
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var node: UnsafeMutablePointer<addrinfo>? = list
        while let entry = node {
            if let address = Self.address(of: entry.pointee) { addresses.append(address) }
            node = entry.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw PinholeError(.networkFailure, "\(host) has no IP address") }
        return addresses
    }

    private static func address(of entry: addrinfo) -> IPAddress? {
        guard let socketAddress = entry.ai_addr else { return nil }
        switch entry.ai_family {
        case AF_INET:
            return socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                .v4(UInt32(bigEndian: $0.pointee.sin_addr.s_addr))
            }
        case AF_INET6:
            return socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var bytes = pointer.pointee.sin6_addr
                return .v6(withUnsafeBytes(of: &bytes) { Array($0) })
            }
        default:
            return nil
        }
    }
}
