import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

/// The disk cache of original bytes as the pipeline uses it: freshness, HTTP revalidation, failures.
@Suite(.timeLimit(scaledMinutes: 2))
struct PipelineDiskCacheTests {
    @Test func staleEntryIsRevalidatedAnd304ServesTheCachedBytes() async throws {
        // Given an image with an ETag that must be revalidated on every use (no-cache)
        let harness = try Harness(diskCache: true)
        let image = try await Fixture.input("orient-1.jpg")
        harness.server.route(
            "/etag.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "no-cache"],
                body: image, etag: "v1"))
        let request = harness.request("/etag.jpg", size: nil)
        let first = try await harness.pipeline.image(for: request)
        // When it is loaded again after the memory cache is emptied
        harness.pipeline.removeAllCachedImages()
        let second = try await harness.pipeline.image(for: request)
        // Then the server was asked with If-None-Match, answered 304, and the cached bytes were used
        #expect(second.source == .diskCache)
        #expect(second.image == first.image)
        #expect(harness.server.stats.notModified == 1)
        #expect(harness.server.lastRequest(for: "/etag.jpg")?.headers["if-none-match"] == "\"v1\"")
        #expect(harness.pipeline.metrics.notModified == 1)
    }

    @Test func changedEntryIsDownloadedAgainWhenTheETagNoLongerMatches() async throws {
        let harness = try Harness(diskCache: true)
        harness.server.route(
            "/v.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "max-age=0"],
                body: try await Fixture.input("orient-1.jpg"), etag: "v1"))
        let request = harness.request("/v.jpg", size: nil)
        _ = try await harness.pipeline.image(for: request)
        harness.server.route(
            "/v.jpg",
            Route(
                headers: ["content-type": "image/jpeg"],
                body: try await Fixture.input("size-key-source.jpg"), etag: "v2"))
        harness.pipeline.removeAllCachedImages()
        let second = try await harness.pipeline.image(for: request)
        #expect(second.source == .network)
        #expect((second.image.width, second.image.height) == (400, 300))
    }

    @Test func freshEntryIsServedWithoutAskingTheServer() async throws {
        let harness = try Harness(diskCache: true)
        harness.server.route(
            "/fresh.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "max-age=3600"],
                body: try await Fixture.input("orient-1.jpg")))
        let request = harness.request("/fresh.jpg", size: 50)
        _ = try await harness.pipeline.image(for: request)
        // A larger size needs a new decode (a smaller one would be shrunk from memory): its bytes come from disk
        let other = try await harness.pipeline.image(for: harness.request("/fresh.jpg", size: 100))
        #expect(other.source == .diskCache)
        #expect(harness.server.requestCount(for: "/fresh.jpg") == 1)
        #expect(harness.pipeline.metrics.diskHits == 1)
    }

    @Test func truncatedBodyNeverReachesTheDiskCache() async throws {
        // Given a server that sends a JPEG cut at 55% with a Content-Length that matches the cut file
        let harness = try Harness(diskCache: true)
        harness.server.route("/cut.jpg", .image(try await Fixture.input("baseline-truncated-55pct.jpg")))
        let request = harness.request("/cut.jpg")
        // When it is loaded
        let error = await #expect(throws: PinholeError.self) { try await harness.pipeline.image(for: request) }
        // Then it fails as truncated and is cached nowhere; a retry goes back to the network
        #expect(error?.code == .truncated)
        #expect(await harness.pipeline.diskCache()?.count == 0)
        _ = try? await harness.pipeline.image(for: request)
        #expect(harness.server.requestCount(for: "/cut.jpg") == 2)
    }

    @Test func unwritableCacheDirectoryLeavesThePipelineWorkingAndIsReportedOnce() async throws {
        // Given a disk-cache directory below a regular file (it can never be created, even by root)
        let temporary = try TemporaryDirectory(prefix: "pinhole-it")
        defer { temporary.remove() }
        let blocker = temporary.fileURL("a-file")
        try Data("x".utf8).write(to: blocker)
        let harness = try Harness(diskDirectory: blocker.appendingPathComponent("cache"))
        harness.server.route("/ok.jpg", .image(try await Fixture.input("orient-1.jpg")))
        harness.server.route("/ok2.jpg", .image(try await Fixture.input("orient-2.jpg")))
        // When images load
        let first = try await harness.pipeline.image(for: harness.request("/ok.jpg"))
        let second = try await harness.pipeline.image(for: harness.request("/ok2.jpg"))
        // Then they load from the network, and the problem was reported exactly once
        #expect(first.source == .network)
        #expect(second.source == .network)
        #expect(await harness.pipeline.diskCache() == nil)
        #expect(harness.diagnostics.all.filter { $0.contains("disk cache unavailable") }.count == 1)
    }
}
