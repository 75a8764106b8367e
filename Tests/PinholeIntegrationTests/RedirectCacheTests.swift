import Foundation
import Pinhole
import PinholeTestServer
import PinholeTestSupport
import Testing

/// A redirected image in the disk cache, through a real pipeline and the loopback server: the entry is stored
/// under the requested URL and stays fresh only as long as every redirect on the way allows (RFC 9111 §4,
/// RFC 9110 §15.4); revalidation goes through the chain and ends in a `304`.
@Suite(.timeLimit(scaledMinutes: 2))
struct RedirectCacheTests {
    static let year = ["content-type": "image/jpeg", "cache-control": "max-age=31536000"]

    /// `/avatar` answered by `redirect`, then `chain` further redirects, ending at `/target.jpg` (a year-long
    /// image with an ETag); loaded once into a pipeline with a disk cache.
    private func loadedThroughRedirect(_ redirect: Route, chain: [(String, Route)] = []) async throws -> Harness {
        let harness = try Harness(diskCache: true)
        harness.server.route("/avatar", redirect)
        for (path, route) in chain { harness.server.route(path, route) }
        harness.server.route(
            "/target.jpg",
            Route(
                headers: Self.year, body: try await Fixture.input("orient-1.jpg"),
                etag: "v1"))
        let first = try await harness.pipeline.image(for: harness.request("/avatar", size: 64))
        try #require(first.source == .network)
        try #require(await eventually { await harness.pipeline.diskCache()?.count == 1 })
        return harness
    }

    private func loadAgain(_ harness: Harness) async throws -> ImageResponse {
        harness.pipeline.removeAllCachedImages()
        return try await harness.pipeline.image(for: harness.request("/avatar", size: 64))
    }

    /// Seconds of freshness the entry stored under `/avatar` has.
    private func freshSeconds(_ harness: Harness) async throws -> Double {
        let entry = await harness.pipeline.diskCache()?.entry(for: harness.server.url("/avatar").absoluteString)
        let metadata = try #require(entry?.metadata)
        return try #require(metadata.expiresAt).timeIntervalSince(metadata.storedAt)
    }

    @Test func a302WithoutFreshnessToAYearLongTargetIsRevalidatedThroughTheChainOnTheNextUse() async throws {
        // Given /avatar → 302 (no freshness) → /target.jpg fresh for a year, loaded once
        let harness = try await loadedThroughRedirect(.redirect(to: "/target.jpg"))
        // Then the entry under /avatar is stale at once
        #expect(try await freshSeconds(harness) == 0)
        // When it is used again
        let second = try await loadAgain(harness)
        // Then the server is asked again through the redirect, the target answers 304 to the stored validator,
        // and the stored bytes are served
        #expect(harness.server.requestCount(for: "/avatar") == 2)
        #expect(harness.server.lastRequest(for: "/target.jpg")?.headers["if-none-match"] == "\"v1\"")
        #expect(harness.server.stats.notModified == 1)
        #expect(second.source == .diskCache)
        #expect(await harness.pipeline.diskCache()?.count == 1)
    }

    @Test(arguments: ["must-revalidate", "no-cache"])
    func aRedirectThatForbidsStaleUseKeepsTheEntryFromBeingUsedOffline(_ directive: String) async throws {
        // Given /avatar → 302 with Cache-Control: <directive> → /target.jpg fresh for a year, loaded once
        var redirect = Route.redirect(to: "/target.jpg")
        redirect.headers["cache-control"] = directive
        let harness = try await loadedThroughRedirect(redirect)
        // When a new run asks for it offline
        var offline = harness.request("/avatar", size: 64)
        offline.options = [.returnCacheDataDontLoad]
        let result = await Result { try await harness.restarted().pipeline.image(for: offline) }
        // Then the stale entry is not used without the server (RFC 9111 §5.2.2.2, §5.2.2.4)
        guard case .failure(let error) = result else {
            Issue.record("served offline: \(result)")
            return
        }
        #expect((error as? PinholeError)?.code == .notCached, "\(error)")
    }

    @Test func aChangedAvatarBehindA302IsSeenOnTheNextUse() async throws {
        // Given /avatar → 302 → /target.jpg, loaded once
        let harness = try await loadedThroughRedirect(.redirect(to: "/target.jpg"))
        // When /avatar now redirects to a new picture
        harness.server.route("/avatar", .redirect(to: "/new.jpg"))
        harness.server.route("/new.jpg", Route(headers: Self.year, body: try await Fixture.input("orient-2.jpg")))
        let second = try await loadAgain(harness)
        // Then the new picture is downloaded
        #expect(second.source == .network)
        #expect(harness.server.requestCount(for: "/new.jpg") == 1)
    }

    @Test func a302WithExplicitMaxAgeKeepsTheEntryFreshForThatLong() async throws {
        // Given /avatar → 302 fresh for 10 minutes → the year-long target
        var redirect = Route.redirect(to: "/target.jpg")
        redirect.headers["cache-control"] = "max-age=600"
        let harness = try await loadedThroughRedirect(redirect)
        // Then the entry is fresh for the 10 minutes, and the next use asks nobody
        #expect(abs(try await freshSeconds(harness) - 600) < 60)
        #expect(try await loadAgain(harness).source == .diskCache)
        #expect(harness.server.requestCount(for: "/avatar") == 1)
    }

    @Test func a301And308ChainIsHeuristicallyFreshUpToTheConfiguredDefault() async throws {
        // Given /avatar → 301 → /moved → 308 → the year-long target, no freshness on either redirect
        let harness = try await loadedThroughRedirect(
            .redirect(to: "/moved", status: 301), chain: [("/moved", .redirect(to: "/target.jpg", status: 308))])
        // Then the redirects' heuristic lifetime (the 7-day default) bounds the entry, and the next use asks nobody
        #expect(abs(try await freshSeconds(harness) - 7 * 86_400) < 60)
        #expect(try await loadAgain(harness).source == .diskCache)
        #expect(harness.server.requestCount(for: "/avatar") == 1)
    }

    @Test func aRedirectWithNoStoreKeepsTheTargetOutOfTheDiskCache() async throws {
        // Given /avatar → 301 marked no-store → the year-long target
        let harness = try Harness(diskCache: true)
        var redirect = Route.redirect(to: "/target.jpg", status: 301)
        redirect.headers["cache-control"] = "no-store"
        harness.server.route("/avatar", redirect)
        harness.server.route("/target.jpg", Route(headers: Self.year, body: try await Fixture.input("orient-1.jpg")))
        // When it loads twice
        _ = try await harness.pipeline.image(for: harness.request("/avatar", size: 64))
        let second = try await loadAgain(harness)
        // Then nothing was stored and both went to the network
        #expect(await harness.pipeline.diskCache()?.count == 0)
        #expect(second.source == .network)
        #expect(harness.server.requestCount(for: "/target.jpg") == 2)
    }
}
