import Foundation
import Pinhole
import PinholeCurl
import PinholeShared
import PinholeTestServer
import PinholeTestSupport
import Testing

/// The libcurl loader on its own against the loopback server: per-request options (headers, timeout,
/// progress, partial data), validators, content encoding, and what it reports about the response.
@Suite(.timeLimit(scaledMinutes: 1))
struct HTTPDataLoaderTests {
    static func httpFixture(_ name: String) async throws -> Data {
        let url = Fixture.cases.deletingLastPathComponent().appendingPathComponent("http").appendingPathComponent(name)
        return try await WorkerThreadPool.io.run { try Data(contentsOf: url) }
    }

    @Test func configuredAndPerRequestHeadersReachTheServerAndTheRequestWins() async throws {
        // Given a loader with two configured headers, and a request that overrides one and adds another
        let server = try PinholeTestServer()
        server.route("/a.jpg", .image(try await Fixture.input("orient-1.jpg")))
        var settings = Harness.fastLoader()
        settings.additionalHeaders = ["User-Agent": "Pinhole-Test", "X-Team": "configured"]
        let loader = HTTPDataLoader(configuration: settings)
        var request = DataRequest(url: server.url("/a.jpg"), ifNoneMatch: "\"v0\"")
        request.headers = ["x-team": "per-request", "Authorization": "Bearer token-1", "X-Empty": ""]
        // When it loads
        _ = try await loader.loadData(for: request)
        // Then the server saw each header once, with the request's value where both set it
        let seen = try #require(server.lastRequest(for: "/a.jpg")).headers
        #expect(seen["user-agent"] == "Pinhole-Test")
        #expect(seen["x-team"] == "per-request")
        #expect(seen["authorization"] == "Bearer token-1")
        #expect(seen["x-empty"] == "")
        #expect(seen["if-none-match"] == "\"v0\"")
        #expect(seen["accept-encoding"]?.contains("gzip") == true)
    }

    @Test(arguments: [("X-Injected", "a\r\nHost: evil.example"), ("Bad Name", "x"), ("", "x")])
    func aHeaderThatWouldSmuggleAnotherIsAnInvalidRequestAndNothingIsSent(name: String, value: String) async throws {
        let server = try PinholeTestServer()
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        var request = DataRequest(url: server.url("/a.jpg"))
        request.headers = [name: value]
        let error = await #expect(throws: PinholeError.self) { try await loader.loadData(for: request) }
        #expect(error?.code == .invalidRequest, "\(String(describing: error))")
        #expect(server.stats.connectionsAccepted == 0)
    }

    @Test func thePerRequestTimeoutEndsATransferTheLoaderWouldWaitOnForMinutes() async throws {
        // Given a server that never answers, and a loader whose own limits are 10 minutes
        let server = try PinholeTestServer()
        server.route("/silent.jpg", Route(behavior: .neverRespond))
        var settings = HTTPDataLoader.Configuration()
        settings.stallTimeout = .seconds(600)
        settings.deadline = .seconds(600)
        let loader = HTTPDataLoader(configuration: settings)
        var request = DataRequest(url: server.url("/silent.jpg"))
        request.timeout = .milliseconds(300)
        // When it loads
        let start = ContinuousClock.now
        let error = await #expect(throws: PinholeError.self) { try await loader.loadData(for: request) }
        // Then it times out, not before the 300 ms asked for (the suite's 1-minute limit bounds it above),
        // and the server sees the client go
        #expect(error?.code == .timeout, "\(String(describing: error))")
        #expect(ContinuousClock.now - start >= LibcurlTimer.earliestEnd(of: .milliseconds(300)))
        #expect(await eventually { server.stats.requestsAborted == 1 })
    }

    @Test func progressIsReportedAsBytesArriveAndOnceAtTheEnd() async throws {
        // Given a 300,000-byte image body trickled in 50,000-byte steps
        let server = try PinholeTestServer()
        var body = try await Fixture.input("slow-noise.jpg")
        body.append(Data((0..<(300_000 - body.count)).map { UInt8(truncatingIfNeeded: $0) }))
        server.route(
            "/big.jpg",
            Route(
                headers: ["content-type": "image/jpeg"], body: body,
                behavior: .trickle(bytes: 50_000, every: .milliseconds(30))))
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        let progress = Locked<[(Int, Int?)]>([])
        let partials = Locked<[Data]>([])
        var request = DataRequest(url: server.url("/big.jpg"))
        request.onProgress = { received, expected in progress.withLock { $0.append((received, expected)) } }
        request.onPartialData = { data in partials.withLock { $0.append(data) } }
        // When it loads
        let response = try await loader.loadData(for: request)
        // Then progress grew with the expected total known, and ended at (total, total)
        #expect(response.data == body)
        let reports = progress.withLock { $0 }
        try #require(reports.count >= 3, "\(reports)")
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.0 <= $1.0 }, "\(reports)")
        #expect(reports.dropLast().allSatisfy { $0.1 == body.count }, "\(reports)")
        #expect(reports.last?.0 == body.count && reports.last?.1 == body.count)
        // And each partial copy is a prefix of the body, at least 64 KiB longer than the one before
        let copies = partials.withLock { $0 }
        #expect(copies.count >= 2, "\(copies.map(\.count))")
        var previous = 0
        for copy in copies {
            #expect(copy.count - previous >= 65_536)
            #expect(copy == body.prefix(copy.count))
            previous = copy.count
        }
    }

    @Test func anETagRevalidationIsA304WithNoBody() async throws {
        let server = try PinholeTestServer()
        var route = Route.image(try await Fixture.input("orient-1.jpg"))
        route.etag = "v1"
        server.route("/e.jpg", route)
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        let first = try await loader.loadData(for: DataRequest(url: server.url("/e.jpg")))
        let etag = try #require(first.headers["etag"])
        let second = try await loader.loadData(for: DataRequest(url: server.url("/e.jpg"), ifNoneMatch: etag))
        #expect(first.statusCode == 200 && !first.data.isEmpty)
        #expect(second.isNotModified && second.data.isEmpty)
        #expect(server.stats.notModified == 1)
    }

    @Test func aLastModifiedRevalidationSendsIfModifiedSince() async throws {
        // Given a server that answers 304 to the right If-Modified-Since
        let server = try PinholeTestServer()
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        let image = try await Fixture.input("orient-1.jpg")
        server.setHandler { request in
            guard request.headers["if-modified-since"] != date else { return Route(status: 304) }
            return Route(headers: ["content-type": "image/jpeg", "last-modified": date], body: image)
        }
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        let first = try await loader.loadData(for: DataRequest(url: server.url("/m.jpg")))
        let validator = try #require(first.headers["last-modified"])
        let second = try await loader.loadData(for: DataRequest(url: server.url("/m.jpg"), ifModifiedSince: validator))
        #expect(first.statusCode == 200 && second.isNotModified)
    }

    @Test func aRedirectedResponseReportsItsFinalURLAndLowercasedHeaders() async throws {
        let server = try PinholeTestServer()
        server.route("/old.jpg", .redirect(to: "/new.jpg", status: 301))
        server.route(
            "/new.jpg",
            Route(
                headers: ["Content-Type": "image/jpeg", "Cache-Control": "max-age=60"],
                body: try await Fixture.input("orient-1.jpg")))
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        let response = try await loader.loadData(for: DataRequest(url: server.url("/old.jpg")))
        #expect(response.url == server.url("/new.jpg"))
        #expect(response.statusCode == 200)
        #expect(response.headers["cache-control"] == "max-age=60")
        #expect(response.headers["content-type"] == "image/jpeg")
    }

    @Test func eachRedirectIsReportedWithItsURLStatusAndCacheHeaders() async throws {
        // Given /a → 301 (cacheable for an hour) → /b → 302 (with an Expires) → /c.jpg
        let server = try PinholeTestServer()
        var first = Route.redirect(to: "/b", status: 301)
        first.headers["cache-control"] = "max-age=3600"
        var second = Route.redirect(to: "/c.jpg", status: 302)
        second.headers["expires"] = "Thu, 01 Dec 2094 16:00:00 GMT"
        server.route("/a", first)
        server.route("/b", second)
        server.route("/c.jpg", .image(try await Fixture.input("orient-1.jpg")))
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        // When it loads /a
        let response = try await loader.loadData(for: DataRequest(url: server.url("/a")))
        // Then both redirects are reported in order, each with the URL it answered and its own headers
        #expect(response.url == server.url("/c.jpg"))
        #expect(response.redirects.map(\.url) == [server.url("/a"), server.url("/b")])
        #expect(response.redirects.map(\.statusCode) == [301, 302])
        #expect(response.redirects.first?.headers["cache-control"] == "max-age=3600")
        #expect(response.redirects.last?.headers["expires"] == "Thu, 01 Dec 2094 16:00:00 GMT")
        #expect(response.redirects.last?.headers["location"] == "/c.jpg")
    }

    @Test func aBodyCutShortByAClosedConnectionIsTruncatedAndAResetIsANetworkFailure() async throws {
        // Given a body whose connection closes (FIN) after 1000 of its bytes, and one reset (RST) there
        let server = try PinholeTestServer()
        let image = try await Fixture.input("slow-noise.jpg")
        let jpeg = ["content-type": "image/jpeg"]
        server.route("/cut.jpg", Route(headers: jpeg, body: image, behavior: .truncate(afterBytes: 1000)))
        server.route("/reset.jpg", Route(headers: jpeg, body: image, behavior: .reset(afterBytes: 1000)))
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        // When each loads
        let cut = await #expect(throws: PinholeError.self) {
            try await loader.loadData(for: DataRequest(url: server.url("/cut.jpg")))
        }
        let reset = await #expect(throws: PinholeError.self) {
            try await loader.loadData(for: DataRequest(url: server.url("/reset.jpg")))
        }
        // Then the short body is truncated (as Code.truncated documents), the reset a transport failure
        #expect(cut?.code == .truncated, "\(String(describing: cut))")
        #expect((cut?.underlying as? URLError)?.code == .networkConnectionLost)
        #expect(reset?.code == .networkFailure, "\(String(describing: reset))")
    }

    @Test func aGzipEncodedBodyArrivesDecoded() async throws {
        let server = try PinholeTestServer()
        let original = try await Fixture.input("orient-1.jpg")
        server.route(
            "/z.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "content-encoding": "gzip"],
                body: try await Self.httpFixture("orient-1.jpg.gz")))
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        let response = try await loader.loadData(for: DataRequest(url: server.url("/z.jpg")))
        #expect(response.data == original)
    }

    @Test func aCompressedBodyThatDecodesPastTheLimitIsStoppedWhileDecoding() async throws {
        // Given 20 KB on the wire (Content-Length) that decode to 20 MB, and a 1 MB limit
        let server = try PinholeTestServer()
        server.route(
            "/bomb.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "content-encoding": "gzip"],
                body: try await Self.httpFixture("bomb-20mb.jpg.gz")))
        var settings = Harness.fastLoader()
        settings.maxResponseBytes = 1_000_000
        let loader = HTTPDataLoader(configuration: settings)
        // When it loads, Then it fails as too large
        let error = await #expect(throws: PinholeError.self) {
            try await loader.loadData(for: DataRequest(url: server.url("/bomb.jpg")))
        }
        #expect(error?.code == .dataTooLarge, "\(String(describing: error))")
    }

    /// Up to ``HTTPDataLoader/Configuration/maxConnectionsPerHost`` (6) transfers to one HTTP/1.1 host run at
    /// once, each on its own connection.
    @Test func sixTransfersToOneHTTPHostOpenSixConnectionsAtOnce() async throws {
        // Given a server that answers after 30 s
        let server = try PinholeTestServer()
        server.route("/slow.jpg", .image(try await Fixture.input("orient-1.jpg"), latency: .seconds(30)))
        var settings = HTTPDataLoader.Configuration()
        settings.maxConnectionsPerHost = 6
        settings.stallTimeout = .seconds(120)  // libcurl's stall timer also runs while waiting for the head
        settings.deadline = .seconds(300)
        let loader = HTTPDataLoader(configuration: settings)
        // When seven callers ask at once (the seventh waits inside libcurl)
        let tasks = (0..<7).map { index in
            Task { try await loader.loadData(for: DataRequest(url: server.url("/slow.jpg?\(index)"))) }
        }
        defer { for task in tasks { task.cancel() } }
        // Then six reach the server, on six connections, before any is answered
        #expect(await eventually { server.stats.requestsStarted == 6 }, "\(server.stats)")
        #expect(server.stats.requestsCompleted == 0)
        #expect(server.stats.connectionsAccepted == 6)
        #expect(loader.activeTransferCount == 7)
    }

    @Test func aCallerCancelledBeforeTheCallSendsNothing() async throws {
        let server = try PinholeTestServer()
        server.route("/a.jpg", .image(try await Fixture.input("orient-1.jpg")))
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await loader.loadData(for: DataRequest(url: server.url("/a.jpg")))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(server.stats.connectionsAccepted == 0)
        #expect(loader.activeTransferCount == 0)
    }
}
