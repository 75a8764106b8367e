import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole

/// The disk cache stores a redirected response under the requested URL, so its freshness is the most restrictive
/// of the final response and every redirect on the way (RFC 9111 §4, RFC 9110 §15.1 and §15.4).
@Suite(.timeLimit(scaledMinutes: 1))
struct RedirectFreshnessTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let year = 31_536_000.0
    static let week = Duration.seconds(7 * 86_400)

    /// A year-long final response reached through `redirects` (status, headers), judged at ``now``.
    private func decision(through redirects: [(Int, [String: String])]) -> DiskCacheFreshness.Decision {
        let hops = redirects.enumerated().map { index, hop in
            DataResponse.Redirect(url: URL(string: "https://a.example/hop\(index)")!, statusCode: hop.0, headers: hop.1)
        }
        let response = DataResponse(
            data: Data(), headers: ["cache-control": "max-age=31536000"], url: URL(string: "https://b.example/t")!,
            redirects: hops)
        return DiskCacheFreshness.decision(for: response, now: Self.now, defaultFreshness: Self.week)
    }

    /// Seconds of freshness a stored verdict gives, to the millisecond, or `nil` when it is not stored.
    private func freshSeconds(_ decision: DiskCacheFreshness.Decision) -> Double? {
        guard case .store(let metadata) = decision, let expiresAt = metadata.expiresAt else { return nil }
        return (expiresAt.timeIntervalSince(Self.now) * 1000).rounded() / 1000
    }

    @Test(arguments: [302, 303, 307])
    func aTemporaryRedirectWithoutExplicitFreshnessMakesTheEntryStaleAtOnce(status: Int) {
        // Given a year-long target behind a temporary redirect that says nothing about freshness
        // Then the entry is stored (so it can be revalidated) but fresh for 0 s
        #expect(freshSeconds(decision(through: [(status, ["location": "/t"])])) == 0)
    }

    @Test(arguments: [300, 301, 308])
    func aPermanentRedirectWithoutExplicitFreshnessIsHeuristicallyCacheable(status: Int) {
        // Given a year-long target behind a heuristically cacheable redirect without explicit freshness
        // Then the heuristic applies to the redirect: the configured default (a week) bounds the entry
        #expect(freshSeconds(decision(through: [(status, ["location": "/t"])])) == 604_800.0)
        // And with a Last-Modified 10 days old, 10 % of that: one day
        let modified = HTTPDate.format(Self.now.addingTimeInterval(-10 * 86_400))
        let headers = ["location": "/t", "last-modified": modified, "date": HTTPDate.format(Self.now)]
        #expect(freshSeconds(decision(through: [(status, headers)])) == 86_400)
    }

    @Test func explicitFreshnessOnATemporaryRedirectIsHonouredAndTheShortestHopWins() {
        // Given a 302 fresh for an hour, then a 307 fresh for a minute, then the year-long target
        let chain = [(302, ["cache-control": "max-age=3600"]), (307, ["cache-control": "max-age=60", "age": "20"])]
        // Then the entry is fresh for what is left of the minute
        #expect(freshSeconds(decision(through: chain)) == 40)
        // And a redirect with an Expires already past makes it stale
        let expired = ["expires": HTTPDate.format(Self.now.addingTimeInterval(-1)), "date": HTTPDate.format(Self.now)]
        #expect(freshSeconds(decision(through: [(301, expired)])) == 0)
    }

    @Test(arguments: [["cache-control": "no-store"], ["cache-control": "max-age=60", "vary": "*"]])
    func aRedirectThatMayNotBeStoredKeepsTheEntryOutOfTheCache(_ headers: [String: String]) {
        guard case .doNotStore = decision(through: [(301, ["location": "/mid"]), (302, headers)]) else {
            Issue.record("stored although a redirect forbids it")
            return
        }
    }

    @Test func withoutRedirectsTheFinalResponseAloneDecides() {
        #expect(freshSeconds(decision(through: [])) == Self.year)
    }

    @Test func aRevalidationIsLimitedByTheRedirectsItWentThrough() {
        // Given a stored year-long entry revalidated by a 304 reached through a 302 without freshness
        let previous = DiskCache.Metadata(etag: "\"v1\"", storedAt: Self.now, cacheControl: "max-age=31536000")
        let hop = DataResponse.Redirect(url: URL(string: "https://a.example/avatar")!, statusCode: 302)
        let response = DataResponse(
            data: Data(), statusCode: 304, url: URL(string: "https://b.example/t")!, redirects: [hop])
        let verdict = DiskCacheFreshness.decision(
            revalidatedBy: response, previous: previous, now: Self.now, defaultFreshness: Self.week)
        // Then it stays stored, stale at once
        #expect(freshSeconds(verdict) == 0)
    }
}
