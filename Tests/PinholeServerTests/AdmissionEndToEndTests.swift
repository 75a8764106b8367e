import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Testing

/// Admission control through the real server: refusals come before the work, with `Retry-After`; memory is
/// reserved by each decode's estimate and always given back; metrics show it.
@Suite(.timeLimit(scaledMinutes: 2))
struct AdmissionEndToEndTests {
    @Test func aRequestBeyondTheQueueIs503WithRetryAfterWhileTheWorkAheadIsStillRunning() async throws {
        // Given 2 places (concurrency 1) and a queue of 1, and an origin that never answers
        let harness = try ServerHarness { configuration, _ in
            configuration.concurrency = 1
            configuration.queueLimit = 1
            configuration.timeout = .seconds(600)
        }
        defer { Task { await harness.stop() } }
        for name in ["a", "b", "c"] { harness.origin.route("/\(name).jpg", Route(behavior: .neverRespond)) }
        let admission = try #require(harness.server.service.configuration.admission)
        // (never cancelled: cancelling a URLSession request can block a cooperative thread on Linux; stopping the
        // origin ends them)
        let stuck = ["a", "b"].map { name in
            Task { try? await harness.get(harness.signedPath("w:10", plain: "/\(name).jpg")) }
        }
        #expect(await eventually { admission.snapshot.active == 2 })
        let queued = Task { try? await harness.get(harness.signedPath("w:10", plain: "/c.jpg")) }
        #expect(await eventually { admission.snapshot.queued == 1 })
        // When one more arrives
        let refused = try await harness.get(harness.signedPath("w:10", plain: "/d.jpg"))
        // Then it is answered 503 with Retry-After while the two ahead are still stuck, and its source never asked
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(refused.errorCode == "overloaded")
        #expect(admission.snapshot.active == 2)
        #expect(harness.origin.requestCount(for: "/d.jpg") == 0)
        #expect(harness.origin.requestCount(for: "/c.jpg") == 0)
        // And the metrics show the queue and the refusal
        let metrics = String(decoding: try await harness.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("pinhole_admission_queued 1\n"))
        #expect(metrics.contains("pinhole_admission_active 2\n"))
        #expect(metrics.contains("pinhole_admission_rejections_total{reason=\"queue_full\"} 1\n"))
        await harness.origin.shutDown()
        for task in stuck { _ = await task.value }
        _ = await queued.value
        #expect(await eventually { admission.snapshot.active == 0 })
    }

    @Test func aSourceWhoseDecodeNeedsMoreThanTheMemoryBudgetIs422AndASmallOneIsServed() async throws {
        // Given a 1 MB budget (625 KB for work) and a 1,000 × 1,000 PNG (3 MB by the estimate) beside a small one
        let harness = try ServerHarness { configuration, _ in configuration.memoryBudget = 1_000_000 }
        defer { Task { await harness.stop() } }
        harness.origin.route(
            "/large.png", .image(try await OriginImages.halves(width: 1000, height: 1000, format: .png)))
        harness.origin.route("/small.png", .image(try await OriginImages.halves(width: 80, height: 60, format: .png)))
        // When both are asked for at 40 px
        let large = try await harness.get(harness.signedPath("w:40", plain: "/large.png"))
        let small = try await harness.get(harness.signedPath("w:40", plain: "/small.png"))
        // Then the large one is refused for memory (never fits: no Retry-After), the small one served
        #expect(large.status == 422)
        #expect(large.errorCode == "over_memory_budget")
        #expect(large.header("Retry-After") == nil)
        #expect(small.status == 200)
        #expect(try await ServerHarness.decoded(small.body).size == PixelSize(width: 40, height: 30))
        let admission = try #require(harness.server.service.configuration.admission)
        #expect(admission.snapshot.rejections[.overBudget] == 1)
    }

    @Test func everyReservationIsGivenBackAfterAnswersAndFailures() async throws {
        // Given sources that decode, that are not images, and that fail at the origin
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        harness.origin.route("/page.jpg", .html("<html>not an image</html>"))
        harness.origin.route("/gone.jpg", Route(status: 500))
        // When each is asked for at several sizes, all at once
        let answers = try await withThrowingTaskGroup(of: Int.self) { group in
            for source in ["/p.jpg", "/page.jpg", "/gone.jpg"] {
                for width in [20, 40, 60] {
                    group.addTask { try await harness.get(harness.signedPath("w:\(width)", plain: source)).status }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        // Then each got its own answer, and nothing stays reserved
        #expect(answers.sorted() == [200, 200, 200, 422, 422, 422, 502, 502, 502])
        let admission = try #require(harness.server.service.configuration.admission)
        #expect(admission.snapshot.active == 0)
        #expect(admission.snapshot.memoryReserved == 0)
        #expect(admission.snapshot.memoryWaiting == 0)
    }

    @Test func aClientThatDoesNotReadItsAnswerHoldsNoPlace() async throws {
        // Given a 2,048 × 2,048 PNG of noise (its answer is far larger than the sockets' buffers)
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/noise.png", .image(try await Self.noise(side: 2048), contentType: "image/png"))
        let admission = try #require(harness.server.service.configuration.admission)
        let service = harness.server.service
        let log = harness.log
        let path = harness.signedPath("w:2048/f:png", plain: "/noise.png")
        let port = harness.daemon.port
        // When a client asks for it and reads nothing until the answer is made
        let seen = await onOwnThread { () -> (freed: Bool, logged: Bool, received: Int) in
            guard let client = SlowClient(port: port) else { return (false, true, 0) }
            client.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let deadline = ContinuousClock.now + LoadFactor.scaled(.seconds(30))
            while !(service.encodes == 1 && admission.snapshot.active == 0), ContinuousClock.now < deadline {
                usleep(2000)
            }
            let freed = service.encodes == 1 && admission.snapshot.active == 0
            let logged = log.lines.contains { $0.contains("noise.png") }
            return (freed, logged, client.receiveAll().count)
        }
        // Then the place was given back while the answer was still being sent, and the whole answer arrived
        #expect(seen.freed)
        #expect(!seen.logged)
        #expect(seen.received > 2048 * 2048 * 3)
    }

    /// A `side` × `side` PNG of pseudo-random RGB noise (PNG cannot compress it).
    static func noise(side: Int) async throws -> Data {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let pixels = (0..<side * side * 3).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let image = PixelImage(width: side, height: side, pixelFormat: .rgb8, pixels: pixels)
        return try await VipsEncoder().encode(image, options: EncodingOptions(format: .png))
    }
}
