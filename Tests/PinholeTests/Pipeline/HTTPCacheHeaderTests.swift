import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole

/// Parsing of the HTTP caching header fields the disk cache acts on: dates (RFC 9110 §5.6.7) and Cache-Control
/// directives (RFC 9111 §5.2).
@Suite(.timeLimit(scaledMinutes: 1))
struct HTTPCacheHeaderTests {
    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func theThreeHTTPDateFormatsNameTheSameInstant(_ text: String) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test(arguments: [
        "0", "-1", "", "now", "Sun, 06 Nov 1994 08:49:37 +0000", "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:49:37 GMT", "1994-11-06T08:49:37Z",
    ])
    func anythingElseIsNotADate(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func aTwoDigitYearMoreThanFiftyYearsAheadIsInThePastCentury() throws {
        // RFC 9110 §5.6.7, for rfc850-date
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        let soon = try #require(
            HTTPDate.parse("Monday, 01-Jan-\(String(format: "%02d", (year + 10) % 100)) 00:00:00 GMT"))
        let farAhead = try #require(
            HTTPDate.parse("Monday, 01-Jan-\(String(format: "%02d", (year + 60) % 100)) 00:00:00 GMT"))
        #expect(soon > Date())
        #expect(farAhead < Date())
    }

    @Test func directivesAreCaseInsensitiveAndQuotedCommasDoNotSplit() {
        let directives = HTTPCacheControl("Private, NO-CACHE=\"Set-Cookie, X-A\", Max-Age=\"60\", must-revalidate")
        #expect(directives.noCache)
        #expect(directives.mustRevalidate)
        #expect(!directives.noStore)
        #expect(directives.maxAge == .seconds(60))
        #expect(directives.directives.map(\.name) == ["private", "no-cache", "max-age", "must-revalidate"])
    }

    @Test(arguments: [
        ("max-age=abc", HTTPCacheControl.Seconds.invalid), ("max-age=", .invalid), ("max-age", .invalid),
        ("max-age=-5", .invalid), ("max-age=10, max-age=20", .invalid), ("max-age=10, max-age=10", .seconds(10)),
        ("max-age=99999999999999999999", .seconds(2_147_483_648)), ("public", .absent),
    ])
    func maxAgeIsANumberOfSecondsOrInvalid(_ field: String, expected: HTTPCacheControl.Seconds) {
        #expect(HTTPCacheControl(field).maxAge == expected)
    }

    @Test func aResponseWithAnInvalidMaxAgeIsStoredStale() {
        let response = DataResponse(
            data: Data(), headers: ["cache-control": "max-age=soon"], url: URL(string: "https://a.example/x")!)
        guard case .store(let metadata) = DiskCacheFreshness.decision(for: response, defaultFreshness: .seconds(3600))
        else {
            Issue.record("not stored")
            return
        }
        #expect(metadata.expiresAt == metadata.storedAt)
    }
}
