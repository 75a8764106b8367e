import Foundation
import Pinhole
import PinholeCurl
import PinholeTestServer
import PinholeTestSupport
import Testing

/// Bad networks through the real pipeline: each fault gives its typed error, leaves both caches empty, and a
/// later request goes to the network again.
@Suite(.timeLimit(scaledMinutes: 2))
struct NetworkFaultTests {
    struct Fault: Sendable, CustomTestStringConvertible {
        var name: String
        var kind: String
        var route: @Sendable (Data) -> Route
        /// A lower bound on how long the failure takes, where the fault makes one certain: a stall or a silent
        /// server cannot be detected before the stall timeout (1 s × the load factor in ``Harness/fastLoader()``,
        /// so at least 1 s). No upper bound: a loaded machine may take any time.
        var takesAtLeast: Duration? = nil

        var testDescription: String { name }
    }

    static let faults: [Fault] = [
        Fault(
            name: "stall mid-body", kind: "timeout",
            route: { Route(headers: ["content-type": "image/jpeg"], body: $0, behavior: .stall(afterBytes: 1000)) },
            takesAtLeast: .seconds(1)),
        Fault(name: "reset mid-body", kind: "network_failure") {
            Route(headers: ["content-type": "image/jpeg"], body: $0, behavior: .reset(afterBytes: 1000))
        },
        Fault(name: "truncated connection", kind: "truncated") {
            Route(headers: ["content-type": "image/jpeg"], body: $0, behavior: .truncate(afterBytes: 1000))
        },
        Fault(name: "500", kind: "http_status") { _ in Route(status: 500, body: Data("oops".utf8)) },
        Fault(name: "503", kind: "http_status") { _ in Route(status: 503, body: Data("busy".utf8)) },
        Fault(name: "HTML as image/jpeg", kind: "not_an_image") { _ in
            .html("<!DOCTYPE html><html><body>" + String(repeating: "x", count: 200) + "</body></html>")
        },
        Fault(name: "empty 200", kind: "empty_data") { _ in .image(Data()) },
        Fault(
            name: "never answers", kind: "timeout", route: { _ in Route(behavior: .neverRespond) },
            takesAtLeast: .seconds(1)),
        Fault(name: "garbage bytes", kind: "not_an_image") { _ in
            .image(Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }))
        },
    ]

    @Test(arguments: faults)
    func faultGivesItsErrorCachesNothingAndIsRetried(_ fault: Fault) async throws {
        // Given a route with the fault and a pipeline with both caches
        let harness = try Harness(diskCache: true)
        let image = try await Fixture.input("slow-noise.jpg")
        harness.server.route("/f.jpg", fault.route(image))
        let request = harness.request("/f.jpg")
        // When it loads
        let start = ContinuousClock.now
        let error = await #expect(throws: PinholeError.self) { try await harness.pipeline.image(for: request) }
        let elapsed = ContinuousClock.now - start
        // Then the error has the fault's kind, no sooner than the fault allows, and nothing is cached
        #expect(error?.code.kind == fault.kind, "\(String(describing: error))")
        if let minimum = fault.takesAtLeast {
            #expect(elapsed >= LibcurlTimer.earliestEnd(of: minimum), "failed after \(elapsed)")
        }
        #expect(harness.pipeline.cachedImage(for: request) == nil)
        #expect(await harness.pipeline.diskCache()?.count == 0)
        // And once the server is healthy, the next request goes to the network and succeeds
        harness.server.route("/f.jpg", .image(image))
        let response = try await harness.pipeline.image(for: request)
        #expect(response.source == .network)
        #expect(harness.server.requestCount(for: "/f.jpg") == 2)
    }

    @Test func bodyOverTheSizeLimitIsStoppedWhileReceiving() async throws {
        // Given a 2 MB body trickled in 64 KiB steps and a 256 KB limit
        var loader = Harness.fastLoader()
        loader.maxResponseBytes = 256_000
        let harness = try Harness(loader: loader)
        let big = Data(repeating: 0xAB, count: 2_000_000)
        var body = try await Fixture.input("slow-noise.jpg")
        body.append(big)
        harness.server.route(
            "/huge.jpg",
            Route(
                headers: ["content-type": "image/jpeg"], body: body,
                behavior: .trickle(bytes: 65_536, every: .milliseconds(20))))
        // When it loads
        let error = await #expect(throws: PinholeError.self) {
            try await harness.pipeline.image(for: harness.request("/huge.jpg"))
        }
        // Then it fails as too large, and the server was cut off long before the end
        #expect(error?.code == .dataTooLarge)
        #expect(await eventually { harness.server.stats.requestsAborted == 1 })
        #expect(harness.server.stats.bytesSent < body.count / 2)
    }

    @Test func declaredContentLengthOverTheLimitFailsBeforeTheBody() async throws {
        var loader = Harness.fastLoader()
        loader.maxResponseBytes = 10_000
        let harness = try Harness(loader: loader)
        harness.server.route("/big.jpg", .image(try await Fixture.input("slow-noise.jpg")))
        let error = await #expect(throws: PinholeError.self) {
            try await harness.pipeline.image(for: harness.request("/big.jpg"))
        }
        #expect(error?.code == .dataTooLarge)
    }

    @Test func connectionRefusedIsANetworkFailure() async throws {
        // Given a port with no listener (a server started and stopped)
        let closed = try PinholeTestServer()
        let url = closed.url("/x.jpg")
        await closed.shutDown()
        let harness = try Harness()
        let error = await #expect(throws: PinholeError.self) {
            try await harness.pipeline.image(for: ImageRequest(url: url))
        }
        #expect(error?.code == .networkFailure)
        #expect(error?.underlying is URLError)
    }

    @Test func redirectChainLongerThanTheLimitFails() async throws {
        var loader = Harness.fastLoader()
        loader.maxRedirects = 2
        let harness = try Harness(loader: loader)
        for index in 0..<4 { harness.server.route("/hop\(index)", .redirect(to: "/hop\(index + 1)")) }
        harness.server.route("/hop4", .image(try await Fixture.input("orient-1.jpg")))
        let error = await #expect(throws: PinholeError.self) {
            try await harness.pipeline.image(for: harness.request("/hop0"))
        }
        #expect(error?.code == .tooManyRedirects)
    }

    @Test func overallDeadlineStopsATrickleThatNeverEnds() async throws {
        var loader = Harness.fastLoader()
        loader.deadline = .seconds(1)
        let harness = try Harness(loader: loader)
        var body = try await Fixture.input("slow-noise.jpg")
        body.append(Data(count: 1_000_000))
        harness.server.route(
            "/forever.jpg",
            Route(
                headers: ["content-type": "image/jpeg"], body: body,
                behavior: .trickle(bytes: 100, every: .milliseconds(50))))
        let start = ContinuousClock.now
        let error = await #expect(throws: PinholeError.self) {
            try await harness.pipeline.image(for: harness.request("/forever.jpg"))
        }
        #expect(error?.code == .timeout)
        // Not before the 1 s deadline: the trickle keeps the stall timer from firing first
        #expect(ContinuousClock.now - start >= LibcurlTimer.earliestEnd(of: .seconds(1)))
    }
}
