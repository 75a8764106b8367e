import Foundation
import Pinhole
import PinholeTestServer
import PinholeTestSupport
import Testing

/// Cached failures (issue 29): an error status answers again from memory within
/// ``ImagePipeline/Configuration/failureMemoryTTL`` and from the disk cache for its HTTP freshness, as the same
/// typed error, without asking the origin; a reload bypasses both. A real pipeline (libcurl, libvips) against the
/// loopback server, counting the requests that reach it.
@Suite(.timeLimit(scaledMinutes: 2))
struct CachedFailureTests {
    static let path = "/missing.jpg"

    /// A harness whose server answers ``path`` with `status` and `headers`.
    static func serving(
        _ status: Int, _ headers: [String: String] = [:], diskCache: Bool = false,
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) throws -> Harness {
        let harness = try Harness(diskCache: diskCache, configure: configure)
        var fields = headers
        fields["content-type"] = "text/plain"
        harness.server.route(path, Route(status: status, headers: fields, body: Data("no such image".utf8)))
        return harness
    }

    /// The error `request` fails with (a success is recorded as an issue).
    static func failure(_ pipeline: ImagePipeline, _ request: ImageRequest) async throws -> PinholeError {
        let result = await Result { try await pipeline.image(for: request) }
        guard case .failure(let error) = result else {
            Issue.record("\(request.url) loaded, expected a failure")
            throw CancellationError()
        }
        return try #require(error as? PinholeError)
    }

    static func requests(_ harness: Harness) -> Int { harness.server.requestCount(for: path) }

    // MARK: - Memory

    @Test func twoLoadsWithinTheTTLAskTheOriginOnce() async throws {
        // Given a source that answers 404 with no caching headers, and no disk cache
        let harness = try Self.serving(404)
        let request = harness.request(Self.path)
        // When it is loaded twice within the failure TTL (30 s by default)
        let first = try await Self.failure(harness.pipeline, request)
        let second = try await Self.failure(harness.pipeline, request)
        // Then both get the same typed error and the origin saw one request
        #expect(first.code == .httpStatus && first.httpStatusCode == 404)
        #expect(second.code == .httpStatus && second.httpStatusCode == 404)
        #expect(Self.requests(harness) == 1)
        #expect(harness.pipeline.metrics.failureHits == 1)
    }

    @Test func aZeroTTLKeepsNoFailure() async throws {
        // Given the failure TTL turned off
        let harness = try Self.serving(404) { $0.failureMemoryTTL = .zero }
        let request = harness.request(Self.path)
        // When the 404 is loaded twice
        _ = try await Self.failure(harness.pipeline, request)
        _ = try await Self.failure(harness.pipeline, request)
        // Then each load asked the origin
        #expect(Self.requests(harness) == 2)
    }

    @Test func emptyingTheMemoryCacheForgetsTheFailuresKeptThere() async throws {
        // Given a 404 kept in memory
        let harness = try Self.serving(404)
        let request = harness.request(Self.path)
        _ = try await Self.failure(harness.pipeline, request)
        // When the memory cache is emptied, and the source loaded again
        harness.pipeline.removeAllCachedImages()
        _ = try await Self.failure(harness.pipeline, request)
        // Then the origin was asked again
        #expect(Self.requests(harness) == 2)
    }

    @Test func aFailureIsAskedAgainAfterTheTTL() async throws {
        // Given a short failure TTL
        let harness = try Self.serving(404) { $0.failureMemoryTTL = .milliseconds(200) }
        let request = harness.request(Self.path)
        _ = try await Self.failure(harness.pipeline, request)
        // When the TTL has passed
        try await Task.sleep(for: .milliseconds(400))
        _ = try await Self.failure(harness.pipeline, request)
        // Then the origin was asked again
        #expect(Self.requests(harness) == 2)
    }

    @Test(arguments: [
        (500, [:], 2), (503, ["cache-control": "max-age=60"], 1), (429, [:], 2),
        (429, ["cache-control": "max-age=60"], 2),
    ])
    func onlyACacheableStatusIsKeptInMemory(status: Int, headers: [String: String], requests: Int) async throws {
        // Given a failing status with these headers, and no disk cache
        let harness = try Self.serving(status, headers)
        let request = harness.request(Self.path)
        // When it is loaded twice within the TTL
        _ = try await Self.failure(harness.pipeline, request)
        let second = try await Self.failure(harness.pipeline, request)
        // Then a plain 5xx or 429 asked the origin again, an explicitly fresh 5xx did not (a 429 is never kept for
        // its freshness: RFC 6585 §4)
        #expect(second.httpStatusCode == status)
        #expect(Self.requests(harness) == requests)
    }

    @Test func theMemorySideFollowsAnExplicitFreshness() async throws {
        // Given a 404 that says max-age=0, and one that says no-store (neither may be reused)
        for cacheControl in ["max-age=0", "no-store"] {
            let harness = try Self.serving(404, ["cache-control": cacheControl])
            let request = harness.request(Self.path)
            // When each is loaded twice within the TTL
            _ = try await Self.failure(harness.pipeline, request)
            _ = try await Self.failure(harness.pipeline, request)
            // Then the origin was asked each time
            #expect(Self.requests(harness) == 2, "\(cacheControl)")
        }
    }

    @Test(arguments: [true, false])
    func theMemorySideKeepsAFailureNoLongerThanItsMaxAge(followsHTTPFreshness: Bool) async throws {
        // Given a 404 fresh for one second, no disk cache, and the default 30 s failure TTL
        let harness = try Self.serving(404, ["cache-control": "max-age=1"]) {
            $0.memoryCacheFollowsHTTPFreshness = followsHTTPFreshness
        }
        let request = harness.request(Self.path)
        _ = try await Self.failure(harness.pipeline, request)
        // When it is loaded again after its max-age
        try await Task.sleep(for: .milliseconds(1500))
        _ = try await Self.failure(harness.pipeline, request)
        // Then, following HTTP freshness, the origin was asked again; otherwise the TTL alone kept it
        #expect(Self.requests(harness) == (followsHTTPFreshness ? 2 : 1))
    }

    @Test func timeoutsAndTransportFailuresAreNotKept() async throws {
        // Given a source whose connection is reset before any answer
        let harness = try Harness()
        harness.server.route(Self.path, Route(body: Data(count: 1000), behavior: .reset(afterBytes: 0)))
        let request = harness.request(Self.path)
        // When it is loaded twice
        let first = try await Self.failure(harness.pipeline, request)
        _ = try await Self.failure(harness.pipeline, request)
        // Then it was not kept: the origin was asked twice
        #expect(first.code != .httpStatus)
        #expect(Self.requests(harness) == 2)
    }

    @Test func aReloadBypassesTheMemorySideAndItsSuccessReplacesTheFailure() async throws {
        // Given a 404 kept in memory
        let harness = try Self.serving(404)
        let request = harness.request(Self.path)
        _ = try await Self.failure(harness.pipeline, request)
        // When the image appears and a reload asks for it
        harness.server.route(Self.path, .image(try await Fixture.input("orient-1.jpg")))
        var reload = request
        reload.options.insert(.reloadIgnoringCachedData)
        let reloaded = try await harness.pipeline.image(for: reload)
        // Then the reload reached the origin, and a plain load afterwards gets the image, not the failure
        #expect(reloaded.source == .network)
        harness.pipeline.removeAllCachedImages()
        let after = try await harness.pipeline.image(for: request)
        #expect(after.source == .network)
        #expect(Self.requests(harness) == 3)
    }

    // MARK: - Disk

    @Test func aFresh404IsAnsweredFromDiskAfterARestart() async throws {
        // Given a 404 with max-age, loaded once with a disk cache
        let harness = try Self.serving(404, ["cache-control": "max-age=600"], diskCache: true)
        _ = try await Self.failure(harness.pipeline, harness.request(Self.path))
        // When a new pipeline over the same directory loads it
        let restarted = try harness.restarted()
        let error = try await Self.failure(restarted.pipeline, restarted.request(Self.path))
        // Then it gets the same typed error without asking the origin, and the entry holds no body
        #expect(error.code == .httpStatus && error.httpStatusCode == 404)
        #expect(Self.requests(harness) == 1)
        #expect(restarted.pipeline.metrics.failureHits == 1)
        let entry = try #require(
            await restarted.pipeline.diskCache()?.entry(for: restarted.request(Self.path).sourceKey))
        #expect(entry.metadata.failureStatus == 404)
        #expect(entry.data.isEmpty)
        #expect(await restarted.pipeline.cache.cachedData(for: restarted.request(Self.path)) == nil)
    }

    @Test func aFailureKeepsOnlyTheHeadFieldsACacheReads() async throws {
        // Given a 404 fresh for 10 minutes that also sends 50 kB of another header
        let harness = try Self.serving(
            404, ["cache-control": "max-age=600", "x-pad": String(repeating: "p", count: 50_000)], diskCache: true)
        // When it is loaded
        let error = try await Self.failure(harness.pipeline, harness.request(Self.path))
        // Then the error's head has the freshness and not the padding, and the failure is stored all the same
        let head = try #require(error.httpResponse)
        #expect(head.headers["cache-control"] == "max-age=600")
        #expect(head.headers["x-pad"] == nil)
        let restarted = try harness.restarted()
        _ = try await Self.failure(restarted.pipeline, restarted.request(Self.path))
        #expect(Self.requests(harness) == 1)
    }

    @Test func aFailureWithAnOversizedCacheFieldIsNotStored() async throws {
        // Given a 404 whose Cache-Control is longer than a cache keeps (a cut one could lose its no-store)
        let control = "max-age=600, " + String(repeating: "x", count: 3000)
        let harness = try Self.serving(404, ["cache-control": control], diskCache: true)
        // When it is loaded, then loaded by a new pipeline over the same directory
        let error = try await Self.failure(harness.pipeline, harness.request(Self.path))
        let restarted = try harness.restarted()
        _ = try await Self.failure(restarted.pipeline, restarted.request(Self.path))
        // Then the error carried no head, and the origin was asked again
        #expect(error.httpResponse == nil)
        #expect(Self.requests(harness) == 2)
    }

    @Test func aStoredFailureLastsAtMostADay() async throws {
        // Given a 404 that says it is fresh for 31 years
        let harness = try Self.serving(404, ["cache-control": "max-age=999999999"], diskCache: true)
        // When it is loaded and stored
        _ = try await Self.failure(harness.pipeline, harness.request(Self.path))
        // Then its entry expires within a day
        let entry = try #require(await harness.pipeline.diskCache()?.entry(for: harness.request(Self.path).sourceKey))
        let expiresAt = try #require(entry.metadata.expiresAt)
        #expect(expiresAt.timeIntervalSinceNow <= 86_400 && expiresAt.timeIntervalSinceNow > 86_000)
    }

    @Test(arguments: [
        (500, ["cache-control": "max-age=600"], true),
        (503, ["expires": HTTPCacheRuleTests.httpDate(21_600)], true),
        (500, [:], false),
        (404, [:], false),
        (404, ["last-modified": HTTPCacheRuleTests.httpDate(-86_400)], true),
        (410, ["cache-control": "max-age=600, no-store"], false),
        (404, ["cache-control": "no-cache"], false),
        (404, ["cache-control": "max-age=600", "vary": "*"], false),
        (429, ["cache-control": "max-age=600"], false),
    ])
    func onlyCacheableFailuresAreStored(status: Int, headers: [String: String], stored: Bool) async throws {
        // Given a failing response with these headers, loaded once
        let harness = try Self.serving(status, headers, diskCache: true)
        _ = try await Self.failure(harness.pipeline, harness.request(Self.path))
        // When a new pipeline over the same directory loads it
        let restarted = try harness.restarted()
        let error = try await Self.failure(restarted.pipeline, restarted.request(Self.path))
        // Then a cacheable failure answered from disk, another asked the origin again
        #expect(error.httpStatusCode == status)
        #expect(Self.requests(harness) == (stored ? 1 : 2))
        #expect(await harness.pipeline.diskCache()?.count == (stored ? 1 : 0))
    }

    @Test func aStaleFailureIsFetchedAgain() async throws {
        // Given a 404 fresh for one second, stored on disk
        let harness = try Self.serving(404, ["cache-control": "max-age=1"], diskCache: true)
        _ = try await Self.failure(harness.pipeline, harness.request(Self.path))
        // When it has gone stale and the image now exists
        try await Task.sleep(for: .milliseconds(1500))
        harness.server.route(Self.path, .image(try await Fixture.input("orient-1.jpg")))
        let restarted = try harness.restarted()
        let response = try await restarted.pipeline.image(for: restarted.request(Self.path))
        // Then the origin was asked again, with no validator, and its image replaced the failure
        #expect(response.source == .network)
        #expect(Self.requests(harness) == 2)
        #expect(harness.server.lastRequest(for: Self.path)?.headers["if-none-match"] == nil)
        let entry = await restarted.pipeline.diskCache()?.entry(for: restarted.request(Self.path).sourceKey)
        #expect(entry?.metadata.failureStatus == nil)
        #expect(entry?.data.isEmpty == false)
    }

    @Test func aStaleFailureDoesNotStandInWhenTheOriginFails() async throws {
        // Given a 404 fresh for one second, stored on disk, gone stale
        let harness = try Self.serving(404, ["cache-control": "max-age=1"], diskCache: true)
        _ = try await Self.failure(harness.pipeline, harness.request(Self.path))
        try await Task.sleep(for: .milliseconds(1500))
        // When the origin now answers 503
        harness.server.route(Self.path, Route(status: 503, body: Data("busy".utf8)))
        let restarted = try harness.restarted()
        let error = try await Self.failure(restarted.pipeline, restarted.request(Self.path))
        // Then the caller gets the 503: the stale failure is no stale copy to serve (it has no bytes)
        #expect(error.code == .httpStatus && error.httpStatusCode == 503)
        #expect(Self.requests(harness) == 2)
    }

    @Test func aReloadBypassesAStoredFailure() async throws {
        // Given a fresh 404 on disk, and the image now at the origin
        let harness = try Self.serving(404, ["cache-control": "max-age=600"], diskCache: true)
        _ = try await Self.failure(harness.pipeline, harness.request(Self.path))
        harness.server.route(Self.path, .image(try await Fixture.input("orient-1.jpg")))
        // When a new pipeline reloads it
        let restarted = try harness.restarted()
        var reload = restarted.request(Self.path)
        reload.options.insert(.reloadIgnoringCachedData)
        let reloaded = try await restarted.pipeline.image(for: reload)
        // Then the reload reached the origin and its bytes replaced the failure for plain loads
        #expect(reloaded.source == .network)
        let again = try harness.restarted()
        let plain = try await again.pipeline.image(for: again.request(Self.path))
        #expect(plain.source == .diskCache)
        #expect(Self.requests(harness) == 2)
    }
}
