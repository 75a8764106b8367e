import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a hostile client or origin found: each test is one attack that got through once, against the real
/// server on libmicrohttpd and a real loopback origin.
@Suite(.timeLimit(scaledMinutes: 2))
struct HostileInputTests {
    @Test func everyRequestSuspendedWhenTheServerStopsGetsItsAnswerBeforeTheConnectionsClose() async throws {
        // Given six requests for one slow source (different widths: six answers), all suspended in the daemon
        let harness = try ServerHarness()
        defer {
            harness.origin.stop()
            harness.session.finishTasksAndInvalidate()
        }
        // (the origin answers after 5 s: time for all six to be suspended at once on a loaded machine)
        harness.origin.route("/slow.jpg", .image(try await OriginImages.halves(), latency: .seconds(5)))
        let widths = Array(40..<46)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for width in widths {
                group.addTask { try await harness.get(harness.signedPath("w:\(width)", plain: "/slow.jpg")).status }
            }
            try #require(await eventually { harness.daemon.suspendedRequestCount == widths.count })
            // When the server drains and its daemon stops, as `pinhole serve` does on SIGTERM (the answers are
            // made while it waits, and the last one is resumed just before the daemon closes its connections)
            await harness.server.drain()
            await harness.daemon.stop()
            // Then every client got its image: none saw its connection closed without an answer
            var statuses: [Int] = []
            for try await status in group { statuses.append(status) }
            #expect(statuses == Array(repeating: 200, count: widths.count))
        }
        #expect(harness.daemon.openRequestCount == 0)
    }

    @Test func aRequestThatWouldWaitWhileTheDaemonStopsIsAnswered503InsteadOfSuspended() async throws {
        // Given a daemon whose responder holds a request on its polling thread, between the head and the suspend
        let responder = GateResponder()
        var settings = HTTPDaemon.Settings()
        settings.idleTimeoutSeconds = 60
        let daemon = try HTTPDaemon(settings: settings, responder: responder)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let url = URL(string: "http://127.0.0.1:\(daemon.port)/wait")!
        async let answer = session.data(from: url)
        try #require(await eventually { responder.hasEntered })
        // When the daemon is told to stop, and only then the request goes on to ask for a suspension
        async let stopped: Void = daemon.stop()
        try #require(await eventually { daemon.isStopping })
        responder.gate.signal()
        // Then the request is answered 503 at once, nothing waits for an answer, and the daemon stops (libmicrohttpd
        // aborts the process when it is stopped with a connection suspended)
        let (_, response) = try await answer
        await stopped
        #expect((response as? HTTPURLResponse)?.statusCode == 503)
        let asked = responder.asked.load(ordering: .acquiring)
        #expect(!asked)
        #expect(daemon.suspendedRequestCount == 0)
    }

    @Test func aSignatureHasOneSpellingOnlyAndAnotherSpellingOfTheSameHMACIs403() async throws {
        // Given one signed URL (a signature of 43 base64url characters: the last one carries 2 unused bits)
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        let path = "/w:50/plain/\(harness.source("/p.jpg"))"
        let signature = harness.signer.signature(for: path)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(alphabet.firstIndex(of: signature.last!))
        let unusedBitsSet = String(signature.dropLast()) + String(alphabet[last | 1])
        // When it is sent as imgproxy writes it, with its one padding character, and spelled otherwise: "=" inside
        // or repeated, the unused bits set (each decodes to the same 32 bytes)
        let accepted = [signature, signature + "="]
        let respelled = [
            String(signature.prefix(10)) + "=" + String(signature.dropFirst(10)), "=" + signature, signature + "===",
            unusedBitsSet,
        ]
        // Then only the first two are served: another spelling would make a new URL (for a CDN, a new cache entry
        // and a way around a blocked URL) out of every signed one
        for candidate in accepted {
            #expect(try await harness.get("/\(candidate)\(path)").status == 200)
        }
        for candidate in respelled {
            let answer = try await harness.get("/\(candidate)\(path)")
            #expect(answer.status == 403, "\(candidate)")
            #expect(answer.errorCode == "invalid_signature")
        }
    }

    @Test func longCachebustersCountAgainstTheEncodedCachesMemory() async throws {
        // Given an unsigned server and a 1×1 source: each answer is under 100 bytes
        let harness = try ServerHarness { configuration, _ in configuration.allowsUnsigned = true }
        defer { Task { await harness.stop() } }
        let pixel = PixelImage(width: 1, height: 1, pixelFormat: .rgb8, pixels: [9, 9, 9])
        harness.origin.route(
            "/1.png", .image(try await VipsEncoder().encode(pixel, options: EncodingOptions(format: .png))))
        // When a client asks for it with 20 distinct cachebusters of 8,000 bytes each (every URL a new entry)
        let count = 20
        let length = 8_000
        for index in 0..<count {
            let buster = String(index) + String(repeating: "x", count: length)
            let answer = try await harness.get("/_/w:1/f:png/cb:\(buster)/plain/\(harness.source("/1.png"))")
            try #require(answer.status == 200)
        }
        // Then the bytes those entries hold (their keys are most of them) count against the memory budget,
        // as the cache's own total and as /metrics reports it
        #expect(harness.server.service.encodedCacheBytes >= count * length)
        let metrics = String(decoding: try await harness.get("/metrics").body, as: UTF8.self)
        let inUse = metrics.split(separator: "\n").first { $0.hasPrefix("pinhole_memory_budget_in_use_bytes ") }
        #expect(inUse.flatMap { Int($0.split(separator: " ")[1]) } ?? 0 >= count * length)
    }
}

/// A responder that holds its first request in ``immediateResponse(to:)`` until ``gate`` is signalled, then asks
/// for the asynchronous answer.
private final class GateResponder: HTTPResponding {
    /// Waited on by libmicrohttpd's polling thread (never by Swift's cooperative pool).
    let gate = DispatchSemaphore(value: 0)
    let entered = Atomic(false)
    let asked = Atomic(false)

    var hasEntered: Bool { entered.load(ordering: .acquiring) }

    func immediateResponse(to request: ServerRequest) -> ServerResponse? {
        entered.store(true, ordering: .releasing)
        gate.wait()
        return nil
    }

    func response(to request: ServerRequest) async -> ServerResponse {
        asked.store(true, ordering: .releasing)
        return ServerResponse(status: 200)
    }

    func completed(_ request: ServerRequest, response: ServerResponse?, completedNormally: Bool) {}
}
