import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The untrusted-source checks on URLs: schemes, host literals, resolved names and file roots. No traffic is
/// sent anywhere: names resolve through a fake resolver, and files are checked, not read.
@Suite(.timeLimit(scaledMinutes: 1))
struct UntrustedSourceGuardTests {
    /// Names with fixed answers; any other name fails to resolve.
    struct FakeResolver: HostResolving {
        var answers: [String: [String]] = [
            "public.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
            "internal.test": ["10.0.0.5"],
            "mixed.test": ["93.184.216.34", "192.168.1.10"],
            "mapped.test": ["::ffff:127.0.0.1"],
            "metadata.test": ["169.254.169.254"],
        ]

        func resolve(_ host: String) throws -> [IPAddress] {
            guard let texts = answers[host] else { throw PinholeError(.networkFailure, "cannot resolve \(host)") }
            return texts.compactMap(IPAddress.init)
        }
    }

    let sourceGuard = UntrustedSourceGuard(allowedFileRoot: nil, resolver: FakeResolver())

    @Test(arguments: [
        "http://127.0.0.1/a.jpg", "http://2130706433/a.jpg", "http://0x7f000001/a.jpg", "http://0177.0.0.1/a.jpg",
        "http://127.1/a.jpg", "http://[::1]:8080/a.jpg", "http://[::ffff:127.0.0.1]/a.jpg", "http://0.0.0.0/",
        "https://10.0.0.1/a.jpg", "http://169.254.169.254/latest/meta-data", "http://[fd00::1]/",
        "http://[fe80::1]/", "http://224.0.0.1/", "http://[64:ff9b::10.0.0.1]/", "http://100.64.1.1/",
        "http://internal.test/a.jpg", "http://mixed.test/a.jpg", "http://mapped.test/a.jpg",
        "http://metadata.test/", "http://INTERNAL.test./a.jpg",
    ])
    func refusesHostsThatReachTheMachineOrItsNetwork(_ text: String) throws {
        let url = try #require(URL(string: text))
        let error = #expect(throws: PinholeError.self) { try sourceGuard.check(url) }
        #expect(error?.code == .untrustedSource, "\(String(describing: error))")
    }

    @Test(arguments: [
        "http://public.test/a.jpg", "https://public.test:8443/a.jpg", "http://93.184.216.34/a.jpg",
        "https://[2606:4700:4700::1111]/a.jpg",
    ])
    func acceptsPublicHosts(_ text: String) throws {
        try sourceGuard.check(try #require(URL(string: text)))
    }

    @Test(arguments: [
        "ftp://public.test/a.jpg", "gopher://public.test/", "data:image/png;base64,AAAA",
        "file:///etc/passwd", "unix:///var/run/docker.sock",
    ])
    func refusesOtherSchemesAndFilesWithoutARoot(_ text: String) throws {
        let error = #expect(throws: PinholeError.self) { try sourceGuard.check(try #require(URL(string: text))) }
        #expect(error?.code == .untrustedSource)
    }

    @Test func anUnresolvableNameIsANetworkFailure() throws {
        let error = #expect(throws: PinholeError.self) { try sourceGuard.check(URL(string: "http://nowhere.test/")!) }
        #expect(error?.code == .networkFailure)
    }

    @Test func theSystemResolverFindsLocalhostLoopbackAndItIsRefused() throws {
        // Given the real resolver (localhost comes from /etc/hosts: no DNS traffic)
        let addresses = try SystemHostResolver().resolve("localhost")
        #expect(addresses.contains { $0.nonPublicReason?.contains("loopback") == true })
        // Then the real guard refuses it
        let error = #expect(throws: PinholeError.self) {
            try UntrustedSourceGuard(allowedFileRoot: nil).check(URL(string: "http://localhost:1/a.jpg")!)
        }
        #expect(error?.code == .untrustedSource)
    }

    @Test func filesOnlyUnderTheRootWithoutDotDotOrEscapingSymlinks() throws {
        // Given root/inside.jpg, root/link-out → a directory outside, root/file-link → a file outside
        let temporary = try TemporaryDirectory(prefix: "pinhole-guard")
        defer { temporary.remove() }
        let base = temporary.url
        let root = base.appendingPathComponent("root")
        let outside = base.appendingPathComponent("outside")
        let files = FileManager.default
        try files.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data([1]).write(to: root.appendingPathComponent("inside.jpg"))
        try Data([1]).write(to: outside.appendingPathComponent("secret.jpg"))
        try files.createSymbolicLink(at: root.appendingPathComponent("link-out"), withDestinationURL: outside)
        try files.createSymbolicLink(
            at: root.appendingPathComponent("file-link.jpg"),
            withDestinationURL: outside.appendingPathComponent("secret.jpg"))
        try files.createSymbolicLink(
            at: root.appendingPathComponent("sub/up.jpg"), withDestinationURL: root.appendingPathComponent("inside.jpg")
        )
        let fileGuard = UntrustedSourceGuard(allowedFileRoot: root, resolver: FakeResolver())

        // Then files inside (also through a symlink that stays inside) pass
        try fileGuard.check(root.appendingPathComponent("inside.jpg"))
        try fileGuard.check(root.appendingPathComponent("sub/up.jpg"))
        // And '..', symlinks out and paths outside are refused
        let refused = [
            URL(fileURLWithPath: root.path + "/../outside/secret.jpg"),
            URL(fileURLWithPath: root.path + "/sub/../inside.jpg"),
            root.appendingPathComponent("link-out/secret.jpg"),
            root.appendingPathComponent("file-link.jpg"),
            outside.appendingPathComponent("secret.jpg"),
            URL(fileURLWithPath: root.path + "-sibling/x.jpg"),
        ]
        for url in refused {
            let error = #expect(throws: PinholeError.self, "\(url.path)") { try fileGuard.check(url) }
            #expect(error?.code == .untrustedSource)
        }
    }
}
