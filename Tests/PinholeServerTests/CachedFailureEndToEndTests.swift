import Foundation
import Pinhole
import PinholeServer
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

/// A source the origin does not have, through the thumbnail server: the client gets the 404 JSON, which no one
/// may cache, and the server's pipeline keeps the failure, so the next request for it does not reach the origin.
@Suite(.timeLimit(scaledMinutes: 2))
struct CachedFailureEndToEndTests {
    @Test func aMissingSourceIsAnswered404AndAskedOfTheOriginOnce() async throws {
        // Given an origin that answers 404 with no caching headers
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/gone.jpg", Route(status: 404, body: Data("not here".utf8)))
        let path = harness.signedPath("w:100", plain: "/gone.jpg")
        // When a client asks for its thumbnail twice
        let first = try await harness.get(path)
        let second = try await harness.get(path)
        // Then both answers are the 404 JSON, not cacheable by the client, and the origin was asked once
        for answer in [first, second] {
            #expect(answer.status == 404)
            #expect(answer.header("Cache-Control") == "no-store")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("\"http_status\""))
        }
        #expect(harness.origin.requestCount(for: "/gone.jpg") == 1)
        // And /metrics counts the second as an answer from the failures kept
        let metrics = String(decoding: try await harness.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("pinhole_cache_hits_total{tier=\"failure\"} 1"), "\(metrics.prefix(2000))")
    }
}
