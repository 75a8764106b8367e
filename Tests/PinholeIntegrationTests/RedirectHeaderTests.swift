import Foundation
import Pinhole
import PinholeCurl
import PinholeTestServer
import PinholeTestSupport
import Testing

/// Which request headers follow a redirect, counted at real loopback servers: every header while the chain stays
/// on the request's origin, only the allow-listed harmless ones once it leaves it (another port, or `localhost`
/// instead of `127.0.0.1` on the same port).
@Suite(.timeLimit(scaledMinutes: 1))
struct RedirectHeaderTests {
    /// Secrets and custom headers a caller sets for the request's own origin, and harmless ones.
    static let headers = [
        "X-Api-Key": "secret-key", "Authorization": "Bearer secret-token", "Cookie": "session=secret",
        "Proxy-Authorization": "Basic c2VjcmV0", "X-Custom": "mine",
        "Accept": "image/webp", "Accept-Language": "fr", "User-Agent": "Pinhole-Test",
    ]

    static func request(_ url: URL) -> DataRequest {
        var request = DataRequest(url: url, ifNoneMatch: "\"v0\"")
        request.headers = headers
        return request
    }

    @Test func everyHeaderReachesASameOriginRedirectTarget() async throws {
        // Given /start → /target on the same server
        let server = try PinholeTestServer()
        server.route("/start", .redirect(to: "/target"))
        server.route("/target", .image(try await Fixture.input("orient-1.jpg")))
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        // When the loader fetches /start with secrets and custom headers
        let response = try await loader.loadData(for: Self.request(server.url("/start")))
        // Then the target received each of them, once
        #expect(response.url == server.url("/target"))
        #expect(server.requestCount(for: "/target") == 1)
        let seen = try #require(server.lastRequest(for: "/target")).headers
        for (name, value) in Self.headers { #expect(seen[name.lowercased()] == value, "\(name)") }
        #expect(seen["if-none-match"] == "\"v0\"")
        await server.shutDown()
    }

    /// `PORT2` is a second server's port (another origin by port), `PORT1` the first server's own port under
    /// the name `localhost` (another origin by host).
    @Test(arguments: ["http://127.0.0.1:PORT2/target", "http://localhost:PORT1/target"])
    func onlyHarmlessHeadersReachACrossOriginRedirectTarget(_ location: String) async throws {
        // Given /start on one origin → /target on another
        let first = try PinholeTestServer()
        let second = try PinholeTestServer()
        let target = location.contains("PORT2") ? second : first
        let resolved = location.replacingOccurrences(of: "PORT2", with: "\(second.port)")
            .replacingOccurrences(of: "PORT1", with: "\(first.port)")
        first.route("/start", .redirect(to: resolved))
        target.route("/target", .image(try await Fixture.input("orient-1.jpg")))
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        // When the loader fetches /start with secrets and custom headers
        let response = try await loader.loadData(for: Self.request(first.url("/start")))
        // Then the first hop got them all; the target got the harmless ones only, validator included
        #expect(response.data.isEmpty == false)
        #expect(first.lastRequest(for: "/start")?.headers["x-api-key"] == "secret-key")
        #expect(target.requestCount(for: "/target") == 1)
        let seen = try #require(target.lastRequest(for: "/target")).headers
        for name in ["X-Api-Key", "Authorization", "Cookie", "Proxy-Authorization", "X-Custom"] {
            #expect(seen[name.lowercased()] == nil, "\(name) reached \(resolved)")
        }
        #expect(seen["accept"] == "image/webp")
        #expect(seen["accept-language"] == "fr")
        #expect(seen["user-agent"] == "Pinhole-Test")
        #expect(seen["if-none-match"] == "\"v0\"")
        await first.shutDown()
        await second.shutDown()
    }

    @Test func aChainThatLeftTheOriginDoesNotRegainTheHeadersWhenItComesBack() async throws {
        // Given /start on the first server → /bounce on a second → /back on the first again
        let first = try PinholeTestServer()
        let second = try PinholeTestServer()
        first.route("/start", .redirect(to: second.url("/bounce").absoluteString))
        second.route("/bounce", .redirect(to: first.url("/back").absoluteString, status: 307))
        first.route("/back", .image(try await Fixture.input("orient-1.jpg")))
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        // When the loader fetches /start
        let response = try await loader.loadData(for: Self.request(first.url("/start")))
        // Then neither the other origin nor the hop it chose back on the first one saw a secret
        #expect(response.redirects.map(\.statusCode) == [302, 307])
        for (server, path) in [(second, "/bounce"), (first, "/back")] {
            let seen = try #require(server.lastRequest(for: path)).headers
            #expect(seen["x-api-key"] == nil, "\(path)")
            #expect(seen["authorization"] == nil, "\(path)")
            #expect(seen["user-agent"] == "Pinhole-Test", "\(path)")
        }
        await first.shutDown()
        await second.shutDown()
    }

    @Test func aRedirectsOwnBodyIsBoundedByTheSizeLimit() async throws {
        // Given /start → 302 whose own body is 2 MB, sent slowly without a declared end (a hostile server)
        let server = try PinholeTestServer()
        var redirect = Route.redirect(to: "/target")
        redirect.body = Data(repeating: 0x41, count: 2_000_000)
        redirect.behavior = .trickle(bytes: 64_000, every: .milliseconds(5))
        redirect.declaresLength = false
        server.route("/start", redirect)
        server.route("/target", .image(try await Fixture.input("orient-1.jpg")))
        var settings = Harness.fastLoader()
        settings.maxResponseBytes = 100_000
        let loader = HTTPDataLoader(configuration: settings)
        // When it loads, Then the redirect is refused as too large before its body is read to the end
        let error = await #expect(throws: PinholeError.self) {
            _ = try await loader.loadData(for: DataRequest(url: server.url("/start")))
        }
        #expect(error?.code == .dataTooLarge, "\(String(describing: error))")
        #expect(server.requestCount(for: "/target") == 0)
        await server.shutDown()
    }

    @Test func theSizeLimitStillAppliesToARedirectTarget() async throws {
        // Given /start → /big.jpg whose body is over the size limit
        let server = try PinholeTestServer()
        server.route("/start", .redirect(to: "/big.jpg", status: 301))
        server.route("/big.jpg", .image(try await Fixture.input("slow-noise.jpg")))
        var settings = Harness.fastLoader()
        settings.maxResponseBytes = 10_000
        let loader = HTTPDataLoader(configuration: settings)
        // When it loads, Then the target is refused as too large
        let error = await #expect(throws: PinholeError.self) {
            try await loader.loadData(for: DataRequest(url: server.url("/start")))
        }
        #expect(error?.code == .dataTooLarge, "\(String(describing: error))")
        #expect(await eventually { loader.activeTransferCount == 0 })
        await server.shutDown()
    }

    @Test func theDeadlineCoversTheWholeChainNotEachHop() async throws {
        // Given three hops that each answer after 400 ms, and a 1 s deadline (each hop alone is within it)
        let server = try PinholeTestServer()
        for (path, next) in [("/h0", "/h1"), ("/h1", "/h2")] {
            var hop = Route.redirect(to: next)
            hop.latency = .milliseconds(400)
            server.route(path, hop)
        }
        server.route("/h2", .image(try await Fixture.input("orient-1.jpg"), latency: .milliseconds(400)))
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        var request = DataRequest(url: server.url("/h0"))
        request.timeout = .seconds(1)
        // When it loads
        let start = ContinuousClock.now
        let error = await #expect(throws: PinholeError.self) { try await loader.loadData(for: request) }
        // Then the chain times out, not before the deadline
        #expect(error?.code == .timeout, "\(String(describing: error))")
        #expect(ContinuousClock.now - start >= LibcurlTimer.earliestEnd(of: .seconds(1)))
        await server.shutDown()
    }
}
