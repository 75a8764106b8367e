extension IPAddress {
    /// Why a fetch from this address could reach the machine itself or its private network, or `nil` when the
    /// address is public (global unicast).
    ///
    /// IPv4: 0/8 (this network, unspecified), 10/8, 172.16/12, 192.168/16 (private), 100.64/10 (carrier-grade
    /// NAT), 127/8 (loopback), 169.254/16 (link-local, cloud metadata), 192.0.0/24 (IETF protocol assignments),
    /// 192.0.2/24, 198.51.100/24, 203.0.113/24 (documentation), 198.18/15 (benchmarking), 224/4 (multicast),
    /// 240/4 (reserved) and 255.255.255.255 (broadcast).
    /// IPv6: `::` (unspecified), `::1` (loopback), fc00::/7 (unique local), fe80::/10 (link-local), fec0::/10
    /// (site-local), ff00::/8 (multicast), 100::/64 (discard), 2001:db8::/32 (documentation), 2001::/32
    /// (Teredo: tunnels to an address it hides), 64:ff9b:1::/48 (local NAT64); and the IPv4 address inside
    /// IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64 (64:ff9b::/96) and 6to4
    /// (2002::/16) addresses is judged by the IPv4 rules.
    public var nonPublicReason: String? {
        switch self {
        case .v4(let value): return Self.reasonV4(value)
        case .v6(let bytes): return Self.reasonV6(bytes)
        }
    }

    /// `true` when ``nonPublicReason`` is `nil`.
    public var isPublic: Bool { nonPublicReason == nil }

    private static let v4Ranges: [(base: UInt32, prefix: Int, reason: String)] = [
        (0x0000_0000, 8, "unspecified (0.0.0.0/8)"),
        (0x0A00_0000, 8, "private (10/8)"),
        (0x6440_0000, 10, "carrier-grade NAT (100.64/10)"),
        (0x7F00_0000, 8, "loopback (127/8)"),
        (0xA9FE_0000, 16, "link-local (169.254/16)"),
        (0xAC10_0000, 12, "private (172.16/12)"),
        (0xC000_0000, 24, "IETF protocol assignments (192.0.0/24)"),
        (0xC000_0200, 24, "documentation (192.0.2/24)"),
        (0xC0A8_0000, 16, "private (192.168/16)"),
        (0xC612_0000, 15, "benchmarking (198.18/15)"),
        (0xC633_6400, 24, "documentation (198.51.100/24)"),
        (0xCB00_7100, 24, "documentation (203.0.113/24)"),
        (0xE000_0000, 4, "multicast (224/4)"),
        (0xF000_0000, 4, "reserved (240/4, including broadcast)"),
    ]

    private static func reasonV4(_ value: UInt32) -> String? {
        for range in v4Ranges {
            let mask: UInt32 = range.prefix == 0 ? 0 : ~UInt32(0) << UInt32(32 - range.prefix)
            if value & mask == range.base { return range.reason }
        }
        return nil
    }

    private static func reasonV6(_ b: [UInt8]) -> String? {
        guard b.count == 16 else { return "malformed IPv6 address" }
        func embeddedV4(at offset: Int) -> UInt32 {
            UInt32(b[offset]) << 24 | UInt32(b[offset + 1]) << 16 | UInt32(b[offset + 2]) << 8 | UInt32(b[offset + 3])
        }
        func inner(_ kind: String, _ v4: UInt32) -> String? {
            reasonV4(v4).map { "\(kind) \(IPAddress.v4(v4)): \($0)" }
        }
        let firstTenZero = b[0..<10].allSatisfy { $0 == 0 }
        if b.allSatisfy({ $0 == 0 }) { return "unspecified (::)" }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return "loopback (::1)" }
        if firstTenZero && b[10] == 0xFF && b[11] == 0xFF { return inner("IPv4-mapped", embeddedV4(at: 12)) }
        if firstTenZero && b[10] == 0 && b[11] == 0 {
            // IPv4-compatible (deprecated): judged by its IPv4 part, and refused anyway as nothing routes it.
            return inner("IPv4-compatible", embeddedV4(at: 12)) ?? "IPv4-compatible (deprecated, ::/96)"
        }
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B {
            if b[4..<12].allSatisfy({ $0 == 0 }) { return inner("NAT64", embeddedV4(at: 12)) }
            if b[4] == 0 && b[5] == 1 { return "local-use NAT64 (64:ff9b:1::/48)" }
        }
        if b[0] == 0x20 && b[1] == 0x02 { return inner("6to4", embeddedV4(at: 2)) }
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return "documentation (2001:db8::/32)" }
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0 { return "Teredo (2001::/32)" }
        if b[0] == 0x01 && b[1..<8].allSatisfy({ $0 == 0 }) { return "discard (100::/64)" }
        if b[0] & 0xFE == 0xFC { return "unique local (fc00::/7)" }
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return "link-local (fe80::/10)" }
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return "site-local (fec0::/10)" }
        if b[0] == 0xFF { return "multicast (ff00::/8)" }
        return nil
    }
}
