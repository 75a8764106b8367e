import Foundation

/// An IPv4 or IPv6 address, parsed from the spellings a URL host may use.
///
/// IPv4 is read the way `inet_aton` (and so `getaddrinfo` and libcurl) reads it, not only as dotted quads:
/// one to four parts, each decimal, hexadecimal (`0x…`) or octal (leading `0`), the last part filling the
/// remaining bytes. So `2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1` and `127.0.0.1` are all 127.0.0.1.
/// IPv6 is RFC 4291 text (with `::` compression and a dotted IPv4 tail), optionally in brackets and with a
/// zone (`fe80::1%eth0`, the zone is ignored).
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

    /// `inet_aton` rules: 1–4 parts; a.b.c.d, a.b.c (c is 16 bits), a.b (b is 24 bits), a (32 bits).
    static func parseIPv4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            guard let value = parseNumber(part) else { return nil }
            values.append(value)
        }
        let lastBits = UInt64(8 * (5 - parts.count))
        guard values.dropLast().allSatisfy({ $0 <= 0xFF }), values[values.count - 1] < (1 << lastBits) else {
            return nil
        }
        var result: UInt64 = values[values.count - 1]
        for (index, value) in values.dropLast().enumerated() {
            result |= value << UInt64(24 - 8 * index)
        }
        return UInt32(result)
    }

    /// A decimal, `0x` hexadecimal or leading-zero octal number, as `strtoul` with base 0 reads it.
    private static func parseNumber(_ text: Substring) -> UInt64? {
        let lower = text.lowercased()
        let (digits, radix): (Substring, Int) =
            if lower.hasPrefix("0x") { (Substring(lower.dropFirst(2)), 16) }
            else if lower.count > 1 && lower.hasPrefix("0") { (Substring(lower.dropFirst()), 8) }
            else { (Substring(lower), 10) }
        if digits.isEmpty { return radix == 16 ? 0 : nil }  // "0x" alone is 0 to inet_aton
        guard digits.count <= 12, let value = UInt64(digits, radix: radix) else { return nil }
        return value
    }

    /// RFC 4291 text form: eight groups, `::` for a run of zero groups, an optional dotted IPv4 tail.
    static func parseIPv6(_ text: Substring) -> [UInt8]? {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String, allowsIPv4Tail: Bool) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if piece.contains("."), allowsIPv4Tail, index == pieces.count - 1 {
                    guard piece.split(separator: ".").count == 4, let v4 = parseDottedQuad(piece) else { return nil }
                    result += [UInt16(v4 >> 16), UInt16(v4 & 0xFFFF)]
                } else {
                    guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                    result.append(value)
                }
            }
            return result
        }
        let hasCompression = halves.count == 2
        guard let head = groups(halves[0], allowsIPv4Tail: !hasCompression) else { return nil }
        let tail = hasCompression ? groups(halves[1], allowsIPv4Tail: true) : []
        guard let tail else { return nil }
        let zeros = 8 - head.count - tail.count
        guard hasCompression ? zeros >= 1 : zeros == 0 else { return nil }
        let all = head + Array(repeating: 0, count: max(0, zeros)) + tail
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// Strict a.b.c.d with decimal parts (inside IPv6 text, where inet_pton allows nothing else).
    private static func parseDottedQuad(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var result: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let value = UInt32(part), value <= 255
            else { return nil }
            result = result << 8 | value
        }
        return result
    }
}
