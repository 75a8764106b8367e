import Foundation
import Pinhole
import PinholeCurl
import PinholeShared
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Testing

/// The untrusted policy judges the address each connection actually goes to, when libcurl opens its socket.
/// Every address in these tests is loopback (the servers' own, or names libcurl itself resolves to loopback:
/// `localhost` and `*.localhost`); a "public" answer exists only inside a fake resolver. No test sends a byte
/// beyond the machine.
@Suite(.timeLimit(scaledMinutes: 1))
struct ConnectionPolicyTests {
    /// Answers every name with one public address (that of example.com), as a rebinding DNS server answers the
    /// first lookup.
    struct PublicAnswerResolver: HostResolving {
        func resolve(_ host: String) throws -> [IPAddress] { [IPAddress.v4(0x5DB8_D822)] }  // 93.184.216.34
    }

    static func pipeline(loader: HTTPDataLoader.Configuration, untrusted: Bool) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(
            decoder: VipsDecoder(), dataLoader: SchemeRoutingDataLoader(http: HTTPDataLoader(configuration: loader)))
        configuration.hostResolver = PublicAnswerResolver()
        if untrusted { configuration.sourcePolicy = .untrusted(allowedFileRoot: nil) }
        return ImagePipeline(configuration: configuration)
    }

    @Test func aNameThatResolvesPublicForTheCheckAndLoopbackForTheConnectionIsRefusedBeforeAnyRequest() async throws {
        // Given a loopback server, and a name the pre-check's resolver answers with a public address while the
        // connection resolves it to 127.0.0.1 (CURLOPT_RESOLVE)
        let server = try PinholeTestServer()
        server.route("/a.jpg", .image(try await Fixture.input("orient-1.jpg")))
        let host = "images.rebind.localhost"
        let url = try #require(URL(string: "http://\(host):\(server.port)/a.jpg"))
        var loader = Harness.fastLoader()
        loader.resolveOverrides = ["\(host):\(server.port):127.0.0.1"]
        // When a trusted pipeline loads it, it reaches the server (the override works)
        let trusted = try await Self.pipeline(loader: loader, untrusted: false).image(for: ImageRequest(url: url))
        #expect(trusted.source == .network)
        #expect(server.stats.connectionsAccepted == 1)
        server.resetStats()
        // When an untrusted pipeline loads it
        let untrusted = Self.pipeline(loader: loader, untrusted: true)
        let error = await #expect(throws: PinholeError.self) {
            _ = try await untrusted.image(for: ImageRequest(url: url))
        }
        // Then it passes the pre-check but is refused at socket open: the server sees no connection at all
        #expect(error?.code == .untrustedSource, "\(String(describing: error))")
        #expect(error?.message.contains("127.0.0.1") == true, "\(String(describing: error))")
        #expect(server.stats.connectionsAccepted == 0)
        #expect(server.requestCount(for: "/a.jpg") == 0)
    }

    @Test func theFirstAddressIsCheckedBeforeItsSocketIsOpened() async throws {
        // Given a loader whose policy records and refuses every address
        let server = try PinholeTestServer()
        server.route("/a.jpg", .image(try await Fixture.input("orient-1.jpg")))
        let seen = Locked<[String]>([])
        var settings = Harness.fastLoader()
        let sourceGuard = UntrustedSourceGuard(allowedFileRoot: nil)
        settings.connectionPolicy = { address, url in
            seen.withLock { $0.append("\(address) \(url.path)") }
            try sourceGuard.checkConnection(to: address, for: url)
        }
        let loader = HTTPDataLoader(configuration: settings)
        // When it loads the server's URL
        let error = await #expect(throws: PinholeError.self) {
            try await loader.loadData(for: DataRequest(url: server.url("/a.jpg")))
        }
        // Then the policy saw 127.0.0.1 for /a.jpg, refused it, and the server never saw a connection
        #expect(error?.code == .untrustedSource, "\(String(describing: error))")
        #expect(seen.withLock { $0 } == ["127.0.0.1 /a.jpg"])
        #expect(server.stats.connectionsAccepted == 0)
        #expect(await eventually { loader.activeTransferCount == 0 })
    }

    /// A first hop let through (as if it were a public host) redirects to loopback spellings of another server:
    /// the address of each redirect target is checked when its socket is opened, and refused before a SYN.
    @Test(arguments: [
        "http://127.0.0.1:PORT/target.jpg", "http://2130706433:PORT/target.jpg",
        "http://127.1:PORT/target.jpg", "http://[::ffff:127.0.0.1]:PORT/target.jpg",
        "http://localhost:PORT/target.jpg", "http://images.localhost:PORT/target.jpg",
    ])
    func everyRedirectTargetIsCheckedWhenItsSocketOpens(_ location: String) async throws {
        // Given /start.jpg on one server → location on a second one, and a policy exempting the first's port
        let first = try PinholeTestServer()
        let second = try PinholeTestServer()
        first.route("/start.jpg", .redirect(to: location.replacingOccurrences(of: "PORT", with: "\(second.port)")))
        second.route("/target.jpg", .image(try await Fixture.input("orient-1.jpg")))
        let sourceGuard = UntrustedSourceGuard(allowedFileRoot: nil)
        let checked = Locked<[String]>([])
        var settings = Harness.fastLoader()
        let exempt = first.port
        settings.connectionPolicy = { address, url in
            checked.withLock { $0.append(url.path) }
            if url.port == exempt { return }
            try sourceGuard.checkConnection(to: address, for: url)
        }
        let loader = HTTPDataLoader(configuration: settings)
        // When it loads
        let error = await #expect(throws: PinholeError.self) {
            try await loader.loadData(for: DataRequest(url: first.url("/start.jpg")))
        }
        // Then the redirect target's connection was refused as untrusted; the second server saw nothing
        #expect(error?.code == .untrustedSource, "\(String(describing: error))")
        #expect(first.requestCount(for: "/start.jpg") == 1)
        #expect(checked.withLock { $0.first } == "/start.jpg")
        #expect(checked.withLock { $0.dropFirst().contains("/target.jpg") })
        #expect(second.stats.connectionsAccepted == 0)
        #expect(await eventually { loader.activeTransferCount == 0 })
    }

    @Test func aRedirectToAnotherSchemeIsNotFollowed() async throws {
        // Given a redirect to a file URL
        let server = try PinholeTestServer()
        server.route("/start.jpg", .redirect(to: "file:///etc/passwd"))
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        // When it loads, Then it fails as a network failure (libcurl follows http and https only), not a success
        let error = await #expect(throws: PinholeError.self) {
            try await loader.loadData(for: DataRequest(url: server.url("/start.jpg")))
        }
        #expect(error?.code == .networkFailure, "\(String(describing: error))")
        #expect((error?.underlying as? URLError)?.code == .unsupportedURL, "\(String(describing: error))")
    }
}
