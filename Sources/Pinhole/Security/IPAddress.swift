import Foundation

// The platform C library parses the literals, so the security check reads an address exactly as the resolver
// (getaddrinfo, and so libcurl) does. Glibc/Musl/Darwin are the toolchain's libc, not a third-party module.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address, parsed from the spellings a URL host may use.
///
/// IPv4 is read by `inet_aton`, as `getaddrinfo` and libcurl read it, not only as dotted quads: one to four
/// parts, each decimal, hexadecimal (`0x…`) or octal (leading `0`), the last part filling the remaining bytes.
/// So `2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1` and `127.0.0.1` are all 127.0.0.1; nothing may follow
/// the address (`inet_aton` alone would stop at a space). IPv6 is read by `inet_pton`
/// ([RFC 4291 §2.2](https://www.rfc-editor.org/rfc/rfc4291#section-2.2) text, with `::` compression and a
/// dotted IPv4 tail), optionally in brackets and with a zone (`fe80::1%eth0`, the zone is ignored).
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// An IPv4 address, most significant byte first (127.0.0.1 is `0x7F00_0001`).
    case v4(UInt32)
    /// An IPv6 address: 16 bytes in network order.
    case v6([UInt8])

    /// Parses `text` as an IPv4 or IPv6 literal; `nil` when it is neither (for example a host name).
    public init?(_ text: String) {
        var host = Substring(text)
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if host.contains(":") {
            if let zone = host.firstIndex(of: "%") { host = host[..<zone] }
            guard let bytes = Self.parseIPv6(host) else { return nil }
            self = .v6(bytes)
        } else {
            guard let value = Self.parseIPv4(host) else { return nil }
            self = .v4(value)
        }
    }

    /// Dotted quad for IPv4; full, uncompressed lowercase groups for IPv6.
    public var description: String {
        switch self {
        case .v4(let value):
            return [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xFF) }.joined(separator: ".")
        case .v6(let bytes):
            return stride(from: 0, to: 16, by: 2)
                .map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                .joined(separator: ":")
        }
    }

    /// IPv4 as `getaddrinfo` reads it: `inet_aton`, with nothing after the address.
    static func parseIPv4(_ text: Substring) -> UInt32? {
        // inet_aton stops at a space (a C string at a NUL) and accepts what came before; getaddrinfo does not.
        guard text.utf8.allSatisfy(Self.isIPv4Character) else { return nil }
        var address = in_addr()
        guard String(text).withCString({ inet_aton($0, &address) }) != 0 else { return nil }
        return UInt32(bigEndian: address.s_addr)
    }

    /// IPv6 text (no zone, no brackets) as `inet_pton(AF_INET6, …)` reads it.
    static func parseIPv6(_ text: Substring) -> [UInt8]? {
        guard !text.utf8.contains(0) else { return nil }  // withCString would cut the text there
        var address = in6_addr()
        guard String(text).withCString({ inet_pton(AF_INET6, $0, &address) }) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// The characters of an IPv4 literal in any of inet_aton's spellings: ASCII letters, digits and dots.
    private static func isIPv4Character(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}
