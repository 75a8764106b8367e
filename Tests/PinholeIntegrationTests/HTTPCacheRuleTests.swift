import Foundation
import Pinhole
import PinholeTestServer
import PinholeTestSupport
import Testing

/// The disk cache as a private HTTP cache (RFC 9111), one test per rule: a real pipeline against the loopback
/// server, checking what is on disk and how many requests reached the server.
@Suite(.timeLimit(scaledMinutes: 2))
struct HTTPCacheRuleTests {
    /// An image served at `/img.jpg` with `headers` (and `etag`), loaded once; the harness has a disk cache.
    private func servedAndLoaded(_ headers: [String: String], etag: String? = "v1") async throws -> Harness {
        let harness = try Harness(diskCache: true)
        var fields = headers
        fields["content-type"] = "image/jpeg"
        harness.server.route(
            "/img.jpg", Route(headers: fields, body: try await Fixture.input("orient-1.jpg"), etag: etag))
        let first = try await harness.pipeline.image(for: harness.request("/img.jpg", size: 64))
        try #require(first.source == .network)
        return harness
    }

    /// Loads `/img.jpg` again with the memory cache emptied.
    @discardableResult
    private func loadAgain(_ harness: Harness) async throws -> ImageResponse {
        harness.pipeline.removeAllCachedImages()
        return try await harness.pipeline.image(for: harness.request("/img.jpg", size: 64))
    }

    private func entry(_ harness: Harness) async -> DiskCache.Entry? {
        await harness.pipeline.diskCache()?.entry(for: harness.server.url("/img.jpg").absoluteString)
    }

    private func requests(_ harness: Harness) -> Int { harness.server.requestCount(for: "/img.jpg") }

    /// Seconds of freshness the stored entry has left.
    private func freshSeconds(_ harness: Harness) async throws -> Double {
        let metadata = try #require(await entry(harness)?.metadata)
        let expiresAt = try #require(metadata.expiresAt)
        return expiresAt.timeIntervalSince(metadata.storedAt)
    }

    @Test func noStoreIsNeverWritten() async throws {
        // Given a response marked no-store, loaded once
        let harness = try await servedAndLoaded(["cache-control": "no-store"])
        // Then nothing is on disk, and the next use asks the server again, unconditionally
        #expect(await harness.pipeline.diskCache()?.count == 0)
        let second = try await loadAgain(harness)
        #expect(second.source == .network)
        #expect(requests(harness) == 2)
        #expect(harness.server.lastRequest(for: "/img.jpg")?.headers["if-none-match"] == nil)
    }

    @Test(arguments: [200, 304])
    func noStoreRemovesTheEntryItReplaces(status: Int) async throws {
        // Given a stored entry that must be revalidated
        let harness = try await servedAndLoaded(["cache-control": "no-cache"])
        try #require(await harness.pipeline.diskCache()?.count == 1)
        // When the server now says no-store, with new bytes (200) or confirming the old ones (304)
        let body = try await Fixture.input(status == 200 ? "orient-2.jpg" : "orient-1.jpg")
        harness.server.route(
            "/img.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "no-store"],
                body: body, etag: status == 200 ? "v2" : "v1"))
        try await loadAgain(harness)
        // Then the entry is gone and the next use asks without a validator
        #expect(harness.server.stats.notModified == (status == 304 ? 1 : 0))
        #expect(await harness.pipeline.diskCache()?.count == 0)
        try await loadAgain(harness)
        #expect(requests(harness) == 3)
        #expect(harness.server.lastRequest(for: "/img.jpg")?.headers["if-none-match"] == nil)
    }

    @Test(arguments: ["no-cache", "max-age=0", "no-cache, max-age=3600", "private, no-cache=\"set-cookie, a\""])
    func noCacheAndMaxAgeZeroStoreButRevalidateBeforeEveryUse(_ cacheControl: String) async throws {
        // Given such a response with a validator, loaded once
        let harness = try await servedAndLoaded(["cache-control": cacheControl])
        // Then it is stored, and each later use is a conditional request answered 304
        #expect(await harness.pipeline.diskCache()?.count == 1)
        let second = try await loadAgain(harness)
        try await loadAgain(harness)
        #expect(second.source == .diskCache)
        #expect(requests(harness) == 3)
        #expect(harness.server.stats.notModified == 2)
        #expect(harness.server.lastRequest(for: "/img.jpg")?.headers["if-none-match"] == "\"v1\"")
    }

    @Test func maxAgeBeatsAnExpiresInThePast() async throws {
        let harness = try await servedAndLoaded(["cache-control": "max-age=3600", "expires": Self.httpDate(-3600)])
        #expect(try await freshSeconds(harness) > 3500)
        let second = try await loadAgain(harness)
        #expect(second.source == .diskCache)
        #expect(requests(harness) == 1)
    }

    @Test func maxAgeZeroBeatsAnExpiresInTheFuture() async throws {
        let harness = try await servedAndLoaded(["cache-control": "max-age=0", "expires": Self.httpDate(3600)])
        #expect(try await freshSeconds(harness) == 0)
        try await loadAgain(harness)
        #expect(requests(harness) == 2)
        #expect(harness.server.stats.notModified == 1)
    }

    /// RFC 9111 §5.3: "A cache recipient MUST interpret invalid date formats, especially the value '0', as
    /// representing a time in the past."
    @Test(arguments: [
        "0", "-1", "never", "2094-12-01T16:00:00Z", "Thu, 32 Dec 2094 16:00:00 GMT",
        "Thu, 01 Dec 2094 16:00:00 +0000", "1765000000",
    ])
    func anExpiresThatIsNotAnHTTPDateIsAlreadyExpired(_ expires: String) async throws {
        // Given a response whose Expires is not a valid HTTP date, loaded once
        let harness = try await servedAndLoaded(["expires": expires])
        // Then it is stored already stale, and the next use revalidates it
        #expect(try await freshSeconds(harness) == 0)
        let second = try await loadAgain(harness)
        #expect(second.source == .diskCache)
        #expect(requests(harness) == 2)
        #expect(harness.server.lastRequest(for: "/img.jpg")?.headers["if-none-match"] == "\"v1\"")
    }

    /// RFC 9110 §5.6.7: recipients accept IMF-fixdate, RFC 850 and asctime.
    @Test(arguments: ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"])
    func aValidExpiresInAnyHTTPDateFormatKeepsTheEntryFresh(_ format: String) async throws {
        let harness = try await servedAndLoaded(["expires": Self.httpDate(7200, format: format)])
        let fresh = try await freshSeconds(harness)
        #expect(fresh > 7000 && fresh <= 7200)
        try await loadAgain(harness)
        #expect(requests(harness) == 1)
    }

    /// `dateAge`: seconds in the past of a `Date` header made when the test runs (arguments are made earlier).
    @Test(
        arguments: [
            (["cache-control": "max-age=60", "age": "100"], nil, 0.0),
            (["cache-control": "max-age=600", "age": "100"], nil, 500.0),
            (["cache-control": "max-age=600"], 100.0, 500.0),
        ] as [([String: String], Double?, Double)])
    func theResponsesAgeIsSubtracted(headers: [String: String], dateAge: Double?, remaining: Double) async throws {
        // Given a response that was already old when it arrived (Age, or a Date in the past)
        var headers = headers
        if let dateAge { headers["date"] = Self.httpDate(-dateAge) }
        let harness = try await servedAndLoaded(headers)
        // Then its freshness on disk is what was left of it, and the next use asks only when nothing was left
        let fresh = try await freshSeconds(harness)
        #expect(fresh <= remaining && fresh >= remaining - 120, "\(fresh)")
        try await loadAgain(harness)
        #expect(requests(harness) == (remaining == 0 ? 2 : 1))
    }

    @Test(arguments: [503, nil] as [Int?])
    func aStaleEntryStandsInWhenTheOriginCannotBeReachedUnlessItMustRevalidate(status: Int?) async throws {
        for mustRevalidate in [false, true] {
            // Given a stale entry, with or without must-revalidate
            let harness = try await servedAndLoaded([
                "cache-control": "max-age=0" + (mustRevalidate ? ", must-revalidate" : "")
            ])
            // When the origin fails (a 503, or a closed port)
            if let status {
                harness.server.route("/img.jpg", Route(status: status, body: Data("busy".utf8)))
            } else {
                harness.server.stop()
            }
            harness.pipeline.removeAllCachedImages()
            let result: Result<ImageResponse, any Error>
            do {
                result = .success(try await harness.pipeline.image(for: harness.request("/img.jpg", size: 64)))
            } catch {
                result = .failure(error)
            }
            // Then the stale copy answers, unless it must be revalidated
            let served = try? result.get()
            if mustRevalidate {
                #expect(served == nil, "a must-revalidate entry was served stale")
            } else {
                #expect(served?.source == .diskCache)
                #expect(harness.pipeline.metrics.staleHits == 1)
            }
            #expect(requests(harness) == (status == nil ? 1 : 2))
            #expect(await harness.pipeline.diskCache()?.count == 1)
        }
    }

    @Test func aStaleEntryStandsInWhenTheNewBodyIsCutShort() async throws {
        // Given a stale entry, and a server that now sends a changed image whose connection closes mid-body
        let harness = try await servedAndLoaded(["cache-control": "max-age=0"])
        harness.server.route(
            "/img.jpg",
            Route(
                headers: ["content-type": "image/jpeg"],
                body: try await Fixture.input("orient-2.jpg"), etag: "v2",
                behavior: .truncate(afterBytes: 500)))
        // When it is used again
        let served = try await loadAgain(harness)
        // Then the stale copy answers: a body cut short is an origin that could not be reached (RFC 9111 §4.2.4)
        #expect(served.source == .diskCache)
        #expect(harness.pipeline.metrics.staleHits == 1)
        #expect(requests(harness) == 2)
    }

    @Test(arguments: [(10 * 86_400.0, 86_400.0), (1000 * 86_400.0, 7 * 86_400.0)])
    func withoutExplicitFreshnessTenPercentOfTheTimeSinceLastModifiedIsUsedUpToTheDefault(
        age: Double, expected: Double
    ) async throws {
        // Given a response with a Last-Modified `age` seconds ago and no Cache-Control or Expires
        let harness = try await servedAndLoaded(["last-modified": Self.httpDate(-age)])
        // Then it is fresh for 10 % of that age, capped at the 7-day default, and the next use asks nobody
        let fresh = try await freshSeconds(harness)
        #expect(abs(fresh - expected) < 60, "\(fresh)")
        try await loadAgain(harness)
        #expect(requests(harness) == 1)
    }

    @Test func withoutAnyFreshnessInformationTheConfiguredDefaultIsUsed() async throws {
        let harness = try await servedAndLoaded([:])
        #expect(abs(try await freshSeconds(harness) - 7 * 86_400) < 60)
        try await loadAgain(harness)
        #expect(requests(harness) == 1)
    }

    @Test func varyStarIsNotStored() async throws {
        let harness = try await servedAndLoaded(["cache-control": "max-age=3600", "vary": "Accept, *"])
        #expect(await harness.pipeline.diskCache()?.count == 0)
        try await loadAgain(harness)
        #expect(requests(harness) == 2)
    }

    @Test func aWeakValidatorIsSentBackVerbatim() async throws {
        let harness = try await servedAndLoaded(["cache-control": "no-cache"], etag: "W/\"v1\"")
        #expect(await entry(harness)?.metadata.etag == "W/\"v1\"")
        let second = try await loadAgain(harness)
        #expect(second.source == .diskCache)
        #expect(harness.server.lastRequest(for: "/img.jpg")?.headers["if-none-match"] == "W/\"v1\"")
        #expect(harness.server.stats.notModified == 1)
    }

    @Test func a304UpdatesTheStoredHeadersAndFreshness() async throws {
        // Given an entry stored stale (max-age=0)
        let harness = try await servedAndLoaded(["cache-control": "max-age=0"])
        // When the server confirms it and now allows an hour
        harness.server.route(
            "/img.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "max-age=3600"],
                body: try await Fixture.input("orient-1.jpg"), etag: "v1"))
        try await loadAgain(harness)
        // Then the entry is fresh for that hour, and the next use asks nobody
        #expect(harness.server.stats.notModified == 1)
        #expect(try await freshSeconds(harness) > 3500)
        #expect(await entry(harness)?.metadata.cacheControl == "max-age=3600")
        try await loadAgain(harness)
        #expect(requests(harness) == 2)
    }

    @Test func a304WithoutCacheControlKeepsTheStoredDirectives() async throws {
        // Given an entry stored with no-cache
        let harness = try await servedAndLoaded(["cache-control": "no-cache"])
        // When the server confirms it with a 304 that carries no Cache-Control
        harness.server.route(
            "/img.jpg",
            Route(
                headers: ["content-type": "image/jpeg"],
                body: try await Fixture.input("orient-1.jpg"), etag: "v1"))
        try await loadAgain(harness)
        // Then the stored no-cache still applies (RFC 9111 §4.3.4 updates only the fields the 304 has)
        #expect(await entry(harness)?.metadata.cacheControl == "no-cache")
        #expect(try await freshSeconds(harness) == 0)
        try await loadAgain(harness)
        #expect(requests(harness) == 3)
        #expect(harness.server.stats.notModified == 2)
    }

    /// An HTTP date `offset` seconds from now (IMF-fixdate unless another format is given).
    static func httpDate(_ offset: Double, format: String = "EEE, dd MMM yyyy HH:mm:ss 'GMT'") -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter.string(from: Date().addingTimeInterval(offset))
    }
}
