import Foundation
import Pinhole
import PinholeTestServer
import Testing

@testable import PinholeServer

/// An origin's `Retry-After` on a 429 or 503 is passed on with the server's 502, as seconds, bounded, and never as
/// the origin's text (RFC 9110 §10.2.3).
struct RetryAfterTests {
    static let now = Date(timeIntervalSince1970: 1_796_600_000)

    /// The error a loader reports for an origin answer of `status` with `retryAfter` (when given).
    static func failure(_ status: Int, retryAfter: String?) -> PinholeError {
        let headers = retryAfter.map { ["retry-after": $0] } ?? [:]
        return PinholeError(
            .httpStatus, "HTTP \(status)", httpStatusCode: status,
            httpResponse: DataResponse(
                data: Data(), statusCode: status, headers: headers, url: URL(string: "http://origin.test/a.jpg")!))
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    @Test(
        arguments: [
            (503, "120", 120), (429, "7", 7), (503, " 30 ", 30),
            (503, "99999999999999999999", 3_600), (503, "3601", 3_600), (503, "3600", 3_600),
            (503, "00000000120", 120), (503, "0000000000120", 120), (503, "000", nil),
            (503, "0", nil), (503, "-5", nil), (503, "1e3", nil), (503, "soon", nil), (503, "", nil),
            (503, "120\r\nSet-Cookie: a=b", nil),
            (500, "120", nil), (502, "120", nil), (404, "120", nil),
        ] as [(Int, String, Int?)])
    func aDeltaIsPassedOnOnlyFromA429OrA503AndOnlyAsDigits(status: Int, value: String, seconds: Int?) {
        // Given an origin failure with a Retry-After
        let error = Self.failure(status, retryAfter: value)
        // When the server reads it / Then it gives the seconds, or nothing
        #expect(ErrorResponse.retryAfter(of: error, now: Self.now) == seconds)
    }

    @Test func anHTTPDateIsTheSecondsFromNowAndAPastOneIsNothing() {
        // Given dates a minute ahead, two days ahead and a minute ago
        let ahead = Self.failure(503, retryAfter: Self.httpDate(Self.now.addingTimeInterval(60)))
        let far = Self.failure(429, retryAfter: Self.httpDate(Self.now.addingTimeInterval(2 * 86_400)))
        let past = Self.failure(503, retryAfter: Self.httpDate(Self.now.addingTimeInterval(-60)))
        // Then the seconds left, at most an hour, and nothing for the past
        #expect(ErrorResponse.retryAfter(of: ahead, now: Self.now) == 60)
        #expect(ErrorResponse.retryAfter(of: far, now: Self.now) == 3_600)
        #expect(ErrorResponse.retryAfter(of: past, now: Self.now) == nil)
    }

    @Test(arguments: [["cache-control": "max-age=60"], [:]])
    func aFailureAnsweredFromMemoryCarriesWhatIsLeftOfTheOriginsRetryAfter(headers: [String: String]) async throws {
        // Given an origin that answers a 503 with Retry-After, which it lets be kept for a minute or says nothing of
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        var fields = headers
        fields["content-type"] = "text/plain"
        fields["retry-after"] = "120"
        harness.origin.route("/busy.jpg", Route(status: 503, headers: fields, body: Data("busy".utf8)))
        let path = harness.signedPath("w:100", plain: "/busy.jpg")
        // When it is asked for twice
        let asked = Date()
        let first = try await harness.get(path)
        let second = try await harness.get(path)
        let elapsed = Date().timeIntervalSince(asked)
        // Then the origin was asked once (its wait is honoured), and both answers carry what is left of the wait
        #expect(harness.origin.requestCount(for: "/busy.jpg") == 1)
        #expect(first.status == 502 && second.status == 502)
        #expect(first.header("Retry-After") == "120")
        let left = try #require(second.header("Retry-After").flatMap { Int($0) })
        // (rounded up to the second it ends; at least 120 s less the time both answers took, however long that was)
        #expect((Int((119 - elapsed).rounded(.down))...121).contains(left), "\(left) after \(elapsed) s")
    }

    @Test func theAnswerIsA502WithTheHeaderAndWithoutItWhenThereIsNone() {
        // Given a 503 with Retry-After and one without
        let with = ErrorResponse.make(Self.failure(503, retryAfter: "120") as any Error)
        let without = ErrorResponse.make(Self.failure(503, retryAfter: nil) as any Error)
        // Then both are 502 (the origin failed: a front must not retry them elsewhere), one with the header
        #expect(with.status == 502 && without.status == 502)
        #expect(with.headers.filter { $0.0 == "Retry-After" }.map(\.1) == ["120"])
        #expect(!without.headers.contains { $0.0 == "Retry-After" })
    }
}
