import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

/// Cached failures where they meet the pipeline's other paths: coalescing, redirects, revalidation, `Vary`,
/// prefetching and ``ImageSlot/retry()``. Real pipeline, loopback server, disk cache in a temporary directory.
@Suite(.timeLimit(scaledMinutes: 2))
struct CachedFailureSeamTests {
    typealias Fixtures = CachedFailureTests
    static let path = CachedFailureTests.path

    @Test func joinersOfOneLoadGetTheSameErrorFromOneOriginRequest() async throws {
        // Given a 404 that takes a moment to answer
        let harness = try Harness()
        harness.server.route(
            Self.path, Route(status: 404, body: Data("gone".utf8), latency: .milliseconds(300)))
        let request = harness.request(Self.path)
        // When three callers ask for it at once
        async let first = Result { try await harness.pipeline.image(for: request) }
        async let second = Result { try await harness.pipeline.image(for: request) }
        async let third = Result { try await harness.pipeline.image(for: request) }
        let results = await [first, second, third]
        // Then each gets the 404 and the origin saw one request
        for result in results {
            guard case .failure(let error) = result else {
                Issue.record("loaded")
                continue
            }
            #expect((error as? PinholeError)?.httpStatusCode == 404)
        }
        #expect(harness.server.requestCount(for: Self.path) == 1)
    }

    @Test(arguments: [true, false])
    func aRedirectToACacheable404IsStoredUnderTheRequestedURLOnlyWhenTheRedirectAllows(
        permanent: Bool
    ) async throws {
        // Given /old → 301 (heuristically cacheable) or 307 (not, without explicit freshness) → a 404 with max-age
        let harness = try Fixtures.serving(404, ["cache-control": "max-age=600"], diskCache: true)
        harness.server.route("/old", .redirect(to: Self.path, status: permanent ? 301 : 307))
        _ = try await Fixtures.failure(harness.pipeline, harness.request("/old"))
        // When a new pipeline loads /old
        let restarted = try harness.restarted()
        let error = try await Fixtures.failure(restarted.pipeline, restarted.request("/old"))
        // Then the 404 answers from disk after the 301, and the 307 sends it through the chain again
        #expect(error.httpStatusCode == 404)
        #expect(harness.server.requestCount(for: "/old") == (permanent ? 1 : 2))
        #expect(harness.server.requestCount(for: Self.path) == (permanent ? 1 : 2))
    }

    @Test func aStaleImageThatNowAnswers404IsReplacedByTheFailure() async throws {
        // Given an image stored stale (no-cache), with a validator
        let harness = try Harness(diskCache: true)
        harness.server.route(
            Self.path,
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "no-cache"],
                body: try await Fixture.input("orient-1.jpg"), etag: "v1"))
        let image = try await harness.pipeline.image(for: harness.request(Self.path))
        try #require(image.source == .network)
        // When its revalidation is answered 404 with max-age
        harness.server.route(
            Self.path, Route(status: 404, headers: ["cache-control": "max-age=600"], body: Data("gone".utf8)))
        let restarted = try harness.restarted()
        let error = try await Fixtures.failure(restarted.pipeline, restarted.request(Self.path))
        // Then the caller gets the 404 (no stale stand-in), the failure replaced the image on disk, and a later
        // run gets the 404 without asking
        #expect(error.httpStatusCode == 404)
        let entry = await restarted.pipeline.diskCache()?.entry(for: restarted.request(Self.path).sourceKey)
        #expect(entry?.metadata.failureStatus == 404)
        let later = try harness.restarted()
        _ = try await Fixtures.failure(later.pipeline, later.request(Self.path))
        #expect(harness.server.requestCount(for: Self.path) == 2)
    }

    @Test func aStaleImageThatNowAnswersAPlain404IsRemoved() async throws {
        // Given an image stored stale (no-cache)
        let harness = try Harness(diskCache: true)
        harness.server.route(
            Self.path,
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "no-cache"],
                body: try await Fixture.input("orient-1.jpg"), etag: "v1"))
        _ = try await harness.pipeline.image(for: harness.request(Self.path))
        // When its revalidation is answered by a 404 that may not be stored
        harness.server.route(Self.path, Route(status: 404, body: Data("gone".utf8)))
        let restarted = try harness.restarted()
        _ = try await Fixtures.failure(restarted.pipeline, restarted.request(Self.path))
        // Then the stale image is gone from the disk cache
        #expect(await restarted.pipeline.diskCache()?.count == 0)
    }

    @Test(arguments: [
        (429, "max-age=0", "max-age=600", true), (429, "no-cache", "max-age=600", false), (429, "no-cache", "", false),
        (408, "no-cache", "max-age=600", false),
    ])
    func aStaleImageWhoseRevalidationIsRateLimitedStaysOnDisk(
        status: Int, cacheControl: String, rateLimitCacheControl: String, standsIn: Bool
    ) async throws {
        // Given an image stored stale, which may stand in when the origin fails (max-age=0) or may not (no-cache)
        let harness = try Harness(diskCache: true)
        let image = try await Fixture.input("orient-1.jpg")
        harness.server.route(
            Self.path,
            Route(headers: ["content-type": "image/jpeg", "cache-control": cacheControl], body: image, etag: "v1"))
        _ = try await harness.pipeline.image(for: harness.request(Self.path))
        // When its revalidation is answered 429 (or 408), one that says it is fresh for ten minutes or says nothing
        var headers = ["retry-after": "30"]
        if !rateLimitCacheControl.isEmpty { headers["cache-control"] = rateLimitCacheControl }
        harness.server.route(Self.path, Route(status: status, headers: headers, body: Data("slow down".utf8)))
        let restarted = try harness.restarted()
        let result = await Result { try await restarted.pipeline.image(for: restarted.request(Self.path)) }
        // Then the stale image stands in where it may, the caller gets the 429 where it may not, and either way
        // the image stays on disk as it was: a 429 or 408 says nothing of the resource (RFC 6585 §4: never stored)
        switch result {
        case .success(let response): #expect(standsIn && response.source == .diskCache, "\(response.source)")
        case .failure(let error): #expect(!standsIn && (error as? PinholeError)?.httpStatusCode == status, "\(error)")
        }
        let entry = await restarted.pipeline.diskCache()?.entry(for: restarted.request(Self.path).sourceKey)
        #expect(entry?.metadata.failureStatus == nil)
        #expect(entry?.data == image)
    }

    @Test func aStoredFailureAnswersOnlyTheVaryValuesItWasStoredFor() async throws {
        // Given a 404 that varies on Accept-Language, stored for "en"
        let harness = try Fixtures.serving(
            404, ["cache-control": "max-age=600", "vary": "Accept-Language"], diskCache: true)
        let url = harness.server.url(Self.path)
        func request(_ language: String) -> ImageRequest {
            ImageRequest(url: url, headers: ["Accept-Language": language])
        }
        _ = try await Fixtures.failure(harness.pipeline, request("en"))
        try #require(await harness.pipeline.diskCache()?.count == 1)
        // When a new pipeline asks with the same value (same source key), and the stored entry is made to look like
        // one for "fr" (a request with other values must not be answered)
        let restarted = try harness.restarted()
        _ = try await Fixtures.failure(restarted.pipeline, request("en"))
        #expect(harness.server.requestCount(for: Self.path) == 1)
        let disk = try #require(await restarted.pipeline.diskCache())
        let key = request("en").sourceKey
        let stored = try #require(await disk.entry(for: key))
        #expect(stored.metadata.vary == "Accept-Language")
        #expect(stored.metadata.varyingRequestHeaders == ["accept-language": "en"])
        try await disk.store(
            stored.data,
            metadata: stored.metadata.varying("Accept-Language", requestHeaders: ["Accept-Language": "fr"]),
            for: key)
        let third = try harness.restarted()
        _ = try await Fixtures.failure(third.pipeline, request("en"))
        // Then the mismatching entry did not answer: the origin was asked
        #expect(harness.server.requestCount(for: Self.path) == 2)
    }

    @Test func prefetchingA404ThenLoadingItAsksTheOriginOnce() async throws {
        // Given a 404 with no caching headers (kept in memory only)
        let harness = try Fixtures.serving(404)
        let request = harness.request(Self.path)
        // When it is prefetched to the disk cache, then loaded
        let prefetcher = ImagePrefetcher(pipeline: harness.pipeline, destination: .diskCache)
        prefetcher.startPrefetching(with: [request])
        try #require(await eventually { prefetcher.activeCount == 0 })
        let error = try await Fixtures.failure(harness.pipeline, request)
        // Then the load got the 404 without a second origin request
        #expect(error.httpStatusCode == 404)
        #expect(harness.server.requestCount(for: Self.path) == 1)
    }

    @MainActor
    @Test func retryBypassesTheFailuresKept() async throws {
        // Given a slot showing a 404 that is kept in memory and on disk
        let harness = try Fixtures.serving(404, ["cache-control": "max-age=600"], diskCache: true)
        let slot = ImageSlot(pipeline: harness.pipeline)
        slot.load(harness.request(Self.path))
        try #require(await eventually { await MainActor.run { Self.isFailure(slot.phase) } })
        // When the image appears and the slot retries
        harness.server.route(Self.path, .image(try await Fixture.input("orient-1.jpg")))
        slot.retry()
        // Then the retry reached the origin and shows the image
        try #require(await eventually { await MainActor.run { slot.phase.response != nil } })
        #expect(slot.phase.response?.source == .network)
        #expect(harness.server.requestCount(for: Self.path) == 2)
        // And the image replaced the failure: a new run loads it from disk without asking
        let restarted = try harness.restarted()
        let again = try await restarted.pipeline.image(for: restarted.request(Self.path))
        #expect(again.source == .diskCache)
        #expect(harness.server.requestCount(for: Self.path) == 2)
    }

    @Test func aMissingFileIsKeptInMemory() async throws {
        // Given a file URL with nothing there
        let directory = try TemporaryDirectory(prefix: "pinhole-failure")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("absent.jpg")
        let harness = try Harness()
        let request = ImageRequest(url: file)
        let first = try await Fixtures.failure(harness.pipeline, request)
        try #require(first.code == .fileNotFound)
        // When the file appears within the TTL
        try await writeData(try await Fixture.input("orient-1.jpg"), toPath: file.path)
        let second = try await Fixtures.failure(harness.pipeline, request)
        // Then the kept failure answered, and a reload sees the file
        #expect(second.code == .fileNotFound)
        var reload = request
        reload.options.insert(.reloadIgnoringCachedData)
        let reloaded = try await harness.pipeline.image(for: reload)
        #expect(reloaded.source == .file)
    }

    static func isFailure(_ phase: ImageSlot.Phase) -> Bool {
        if case .failure = phase { return true }
        return false
    }
}
