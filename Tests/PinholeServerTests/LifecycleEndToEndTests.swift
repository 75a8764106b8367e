import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import Synchronization
import Testing

/// `/health`, `/metrics`, the access log, draining, and what libmicrohttpd answers by itself.
@Suite(.timeLimit(scaledMinutes: 2))
struct LifecycleEndToEndTests {
    @Test func metricsCountRequestsByStatusCacheTiersAndCoalescingInPrometheusText() async throws {
        // Given a served image (made once, then from the encoded cache) and one refused URL
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        let path = harness.signedPath("w:100", plain: "/p.jpg")
        _ = try await harness.get(path)
        _ = try await harness.get(path)
        _ = try await harness.get("/insecure/w:1/plain/http://e.com/a.jpg")
        // When /metrics is read
        let answer = try await harness.get("/metrics")
        let text = String(decoding: answer.body, as: UTF8.self)
        // Then it is Prometheus text, every sample prefixed pinhole_, with the counts of what happened
        #expect(answer.header("Content-Type")?.hasPrefix("text/plain") == true)
        let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(!samples.isEmpty)
        #expect(samples.allSatisfy { $0.hasPrefix("pinhole_") })
        #expect(text.contains("pinhole_http_requests_total{status=\"200\"} 2"))
        #expect(text.contains("pinhole_http_requests_total{status=\"403\"} 1"))
        #expect(text.contains("pinhole_cache_hits_total{tier=\"encoded_memory\"} 1"))
        #expect(text.contains("pinhole_decodes_total 1"))
        #expect(text.contains("pinhole_http_request_duration_seconds_count 3"))
        #expect(text.contains("pinhole_coalesced_joins_total"))
        #expect(text.contains("pinhole_memory_budget_in_use_bytes"))
        // And the one image made has its pipeline stages in histograms: one download, one decode
        #expect(text.contains("# TYPE pinhole_stage_seconds histogram"))
        #expect(text.contains("pinhole_stage_seconds_count{stage=\"decode\"} 1"))
        #expect(text.contains("pinhole_stage_seconds_count{stage=\"first_byte\"} 1"))
        #expect(text.contains("pinhole_stage_seconds_bucket{stage=\"decode\",le=\"+Inf\"} 1"))
        #expect(text.contains("pinhole_answers_by_source_total{source=\"network\"} 1"))
        // And the access log has one JSON line per request, with status and where the answer came from
        #expect(await eventually { harness.log.lines.count == 4 })
        let lines = harness.log.lines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        // (the last line is /metrics itself, logged once its answer was sent)
        #expect(lines.count == 4)
        #expect(lines.map { $0["status"] as? Int } == [200, 200, 403, 200])
        #expect(lines.map { $0["from"] as? String } == ["network", "memory", nil, nil])
        #expect(lines.last?["target"] as? String == "/metrics")
    }

    @Test func drainingFinishesRequestsInFlightAndRefusesNewOnesWith503() async throws {
        // Given a request in flight (the origin answers after 800 ms)
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/slow.jpg", .image(try await OriginImages.halves(), latency: .milliseconds(800)))
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        #expect(try await harness.get("/health").status == 200)
        let inFlight = Task { try await harness.get(harness.signedPath("w:100", plain: "/slow.jpg")) }
        #expect(await eventually { harness.origin.requestCount(for: "/slow.jpg") == 1 })
        // When the server drains
        let drained = Task { await harness.server.drain() }
        #expect(await eventually { harness.server.isDraining })
        // Then new image requests get 503 with Retry-After, /health says 503, and the one in flight is served
        let refused = try await harness.get(harness.signedPath("w:100", plain: "/p.jpg"))
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(try await harness.get("/health").status == 503)
        #expect(try await inFlight.value.status == 200)
        await drained.value
        #expect(harness.server.workingCount == 0)
        #expect(harness.origin.requestCount(for: "/p.jpg") == 0)
    }

    @Test func aDrainGivesUpOnAStuckRequestAfterTheDrainTimeout() async throws {
        // Given a request stuck on an origin that never answers, and a drain timeout of 300 ms
        let harness = try ServerHarness { configuration, _ in
            configuration.drainTimeout = .milliseconds(300)
            configuration.timeout = .seconds(600)
        }
        defer { Task { await harness.stop() } }
        harness.origin.route("/never.jpg", Route(behavior: .neverRespond))
        // (never cancelled: cancelling a URLSession request can block a cooperative thread on Linux; stopping the
        // origin ends it)
        let stuck = Task { try? await harness.get(harness.signedPath("w:10", plain: "/never.jpg")) }
        #expect(await eventually { harness.server.workingCount == 1 })
        // When the server drains
        let drained = DoneFlag()
        Task {
            await harness.server.drain()
            drained.set()
        }
        // Then the drain returns although the request is still being answered
        #expect(await eventually(timeout: .seconds(20)) { drained.isSet })
        #expect(harness.server.workingCount == 1)
        await harness.origin.shutDown()
        _ = await stuck.value
    }

    @Test func aDaemonStoppedTwiceOrByTwoTasksAtOnceStopsOnceAndStaysUp() async throws {
        // Given a server that answered a request
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        #expect(try await harness.get("/health").status == 200)
        // When two tasks stop its daemon at once, and a third stops it again afterwards (the harness's own stop
        // is a fourth)
        async let first: Void = harness.daemon.stop(grace: .zero)
        async let second: Void = harness.daemon.stop(grace: .zero)
        _ = await (first, second)
        await harness.daemon.stop()
        // Then the process is still here (libmicrohttpd's stop frees the daemon: a second one crashed it), and
        // the port no longer answers
        await #expect(throws: (any Error).self) { _ = try await harness.get("/health") }
    }

    @Test func otherMethodsAre405AndHeadHasNoBody() async throws {
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        let post = try await harness.get("/health", method: "POST")
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        let head = try await harness.get(harness.signedPath("w:100", plain: "/p.jpg"), method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(Int(head.header("Content-Length") ?? "") ?? 0 > 0)
        // And the access log counts no body bytes for the HEAD
        #expect(await eventually { harness.log.lines.contains { $0.contains("\"method\":\"HEAD\"") } })
        #expect(harness.log.lines.first { $0.contains("\"method\":\"HEAD\"") }?.contains("\"bytes\":0,") == true)
    }

    @Test func aTargetLongerThanTheConnectionsMemoryIsRefusedByTheServerLibrary() async throws {
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        let answer = try await harness.get("/x/w:1/plain/http://e.com/" + String(repeating: "a", count: 20_000))
        #expect(answer.status == 414)
        #expect(await eventually { harness.daemon.openRequestCount == 0 })
        #expect(try await harness.get("/health").status == 200)
    }

    @Test func oneClientAddressBeyondItsShareIsAnswered503ThenBeyondTwiceItIsClosed() async throws {
        // Given a daemon that answers 4 connections per client address, held by 4 clients that never finish a head
        let harness = try ServerHarness { configuration, _ in configuration.daemon.connectionLimitPerAddress = 4 }
        defer { Task { await harness.stop() } }
        let port = harness.daemon.port
        let daemon = harness.daemon
        let answers = await onOwnThread { () -> (held: Int, fifth: String, last: [UInt8]) in
            // (each step waits until the daemon has counted the connections before it: its two polling threads
            // accept in parallel, so a later connection may otherwise be counted before an earlier one)
            let held = (0..<4).compactMap { _ in SlowClient(port: port) }
            for client in held { client.send("GET /health HTTP/1.1\r\nX-a: ") }
            Self.waitUntil { daemon.connectionCount(from: "127.0.0.1") == 4 }
            // When a fifth connection from the same address asks for /health
            guard let fifth = SlowClient(port: port) else { return (held.count, "", []) }
            fifth.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let fifthAnswer = String(decoding: fifth.receiveAll(), as: UTF8.self)
            Self.waitUntil { daemon.connectionCount(from: "127.0.0.1") == 4 }
            // And, with 4 more opened to fill twice the share, one more does too
            let beyond = (0..<4).compactMap { _ in SlowClient(port: port) }
            for client in beyond { client.send("GET /health HTTP/1.1\r\nX-a: ") }
            Self.waitUntil { daemon.connectionCount(from: "127.0.0.1") == 8 }
            guard let last = SlowClient(port: port) else { return (held.count, fifthAnswer, []) }
            last.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let lastAnswer = last.receiveAll()
            withExtendedLifetime((held, beyond, fifth)) {}
            return (held.count, fifthAnswer, lastAnswer)
        }
        // Then the fifth is answered 503 too_many_connections with Retry-After, and closed; the last (beyond twice
        // the share) is closed without an answer
        #expect(answers.held == 4)
        #expect(answers.fifth.hasPrefix("HTTP/1.1 503"), "fifth: \(answers.fifth.prefix(200))")
        #expect(answers.fifth.contains("too_many_connections") && answers.fifth.contains("Retry-After: 1"))
        #expect(answers.last.isEmpty, "last: \(String(decoding: answers.last.prefix(200), as: UTF8.self))")
    }

    /// Polls `condition` every 5 ms for up to 10 s, on a thread of the caller's own (never the cooperative pool).
    private static func waitUntil(_ condition: () -> Bool) {
        for _ in 0..<2000 where !condition() { usleep(5000) }
    }

    @Test func unknownPathsAre404AndKeepAliveConnectionsAreReused() async throws {
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        let answer = try await harness.get("/favicon.ico")
        #expect(answer.status == 404)
        #expect(answer.errorCode == "not_found")
        #expect(answer.header("Connection")?.lowercased() != "close")
    }
}

/// Set once something finished.
final class DoneFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .sequentiallyConsistent) }

    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}
