import Pinhole
import PinholeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Address literals in every spelling a URL host may use, and which of them a public fetch may reach.
@Suite(.timeLimit(scaledMinutes: 1))
struct IPAddressClassificationTests {
    /// Spellings of one address that `inet_aton`, and so libcurl, accept.
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"), ("2130706433", "127.0.0.1"), ("0x7f000001", "127.0.0.1"),
        ("0X7F000001", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("0", "0.0.0.0"), ("10.0.0.1", "10.0.0.1"),
        ("012.0.0.1", "10.0.0.1"), ("0xa9fea9fe", "169.254.169.254"), ("192.168.257", "192.168.1.1"),
        ("017700000001", "127.0.0.1"), ("0000000000000000177.1", "127.0.0.1"),
        ("0x00000000000007f000001", "127.0.0.1"), ("037777777777", "255.255.255.255"), ("00", "0.0.0.0"),
    ])
    func parsesEveryIPv4Spelling(_ text: String, _ expected: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.description == expected)
    }

    @Test(arguments: [
        "256.0.0.1", "1.2.3.4.5", "0x1.0x100.0.0", "08.0.0.1", "1..1", "", "example.com", "4294967296",
        "1:2:3:4:5:6:7:8:9", "::1::2", "12345::1", "::ffff:1.2.3",
        "127.0.0.1.", "0x", "0x.1", "1.0x", "040000000000", "127.0.0.1 ", "127.0.0.1 x", "1.2.3.4\t",
        "127.0.0.1\u{0}.example", "::ffff:127.0.0.01", "::00001", "1:2:3:4:5:6:7:1.2.3.4",
    ])
    func rejectsWhatIsNotAnAddress(_ text: String) {
        #expect(IPAddress(text) == nil)
    }

    /// Loopback, private, CGNAT, link-local, multicast, unspecified and reserved IPv4, in mixed spellings.
    @Test(arguments: [
        "127.0.0.1", "127.255.255.254", "2130706433", "0x7f000001", "0177.0.0.1", "127.1", "0.0.0.0", "0",
        "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.1", "100.64.0.1", "100.127.255.255",
        "169.254.169.254", "224.0.0.1", "239.255.255.250", "255.255.255.255", "240.0.0.1", "192.0.0.8",
        "198.18.0.1", "192.0.2.1",
    ])
    func refusesNonPublicIPv4(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.nonPublicReason != nil, "\(text) = \(address)")
    }

    /// IPv6 loopback, unspecified, ULA, link-local, multicast, and IPv4 inside mapped/compatible/NAT64/6to4.
    @Test(arguments: [
        "::1", "::", "[::1]", "fc00::1", "fd12:3456::1", "fe80::1", "fe80::1%eth0", "febf::1", "ff02::1",
        "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
        "::10.0.0.1", "64:ff9b::127.0.0.1", "64:ff9b::a00:1", "64:ff9b::192.168.1.1", "2002:7f00:1::1",
        "2002:c0a8:101::1", "2001:db8::1", "0:0:0:0:0:0:0:1", "64:ff9b:1::1", "2001:0::1", "fec0::1",
    ])
    func refusesNonPublicIPv6(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.nonPublicReason != nil, "\(text) = \(address)")
    }

    @Test(arguments: [
        "8.8.8.8", "93.184.216.34", "1.1.1.1", "172.32.0.1", "100.128.0.1", "169.255.0.1", "11.0.0.1",
        "2606:4700:4700::1111", "2001:4860:4860::8888", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1",
    ])
    func acceptsPublicAddresses(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.isPublic, "\(text): \(address.nonPublicReason ?? "")")
    }

    @Test func describesIPv6InFullGroups() throws {
        #expect(try #require(IPAddress("::ffff:127.0.0.1")).description == "0:0:0:0:0:ffff:7f00:1")
        #expect(try #require(IPAddress("2001:db8::8a2e:370:7334")).description == "2001:db8:0:0:0:8a2e:370:7334")
    }

    /// The address literal the resolver would connect to is the one the check judges: `getaddrinfo` (numeric
    /// hosts only, so no DNS) and `IPAddress` read every spelling alike, or both refuse it.
    @Test(arguments: [
        "127.0.0.1", "127.1", "127.0.1", "0x7f.1", "0x7F.0.0.1", "017700000001", "0177.1", "2130706433",
        "0000000000000000177.1", "0x00000000000007f000001", "00", "0x0", "0xffffffff", "037777777777",
        "127.0.0.1.", "127.1.", "0x", "0x.1", "1.0x", "08", "0x1g", "040000000000", "4294967296", "1.256",
        "1.2.65536", "127.0.0.1 ", "127.0.0.1 x", "+1.2.3.4", "-1", " 1.2.3.4", "1.2.3.4\t",
    ])
    func readsIPv4AsTheResolverDoes(_ text: String) throws {
        // Given the address the system resolver reads from the text, when it is a numeric IPv4 host
        let resolved = Self.numericIPv4(text)

        // When IPAddress parses the same text
        let parsed = IPAddress(text)

        // Then both read the same address, or neither reads one
        #expect(parsed?.description == resolved, "\(text)")
    }

    /// The dotted quad `getaddrinfo` reads from a numeric IPv4 host, or `nil` when it refuses the text.
    private static func numericIPv4(_ text: String) -> String? {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_family = AF_INET
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(text, nil, &hints, &list) == 0, let list else { return nil }
        defer { freeaddrinfo(list) }
        guard let address = list.pointee.ai_addr else { return nil }
        let value = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
            UInt32(bigEndian: $0.pointee.sin_addr.s_addr)
        }
        return IPAddress.v4(value).description
    }
}
