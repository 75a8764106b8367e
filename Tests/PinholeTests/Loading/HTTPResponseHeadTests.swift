import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole
@testable import PinholeCurl

/// The response head built from libcurl's header lines: which head is the final one, and its fields.
@Suite(.timeLimit(scaledMinutes: 1))
struct HTTPResponseHeadTests {
    /// Feeds `lines` (each with CRLF) and returns the kinds of the heads they completed.
    static func feed(_ head: inout HTTPResponseHead, _ lines: [String]) -> [HTTPResponseHead.Kind] {
        lines.compactMap { head.consume($0 + "\r\n") }
    }

    @Test func aPlainResponseIsFinalWithLowercasedJoinedFields() {
        var head = HTTPResponseHead()
        let kinds = Self.feed(
            &head,
            [
                "HTTP/1.1 200 OK", "Content-Type: image/jpeg", "Vary: Accept",
                "vary: Origin", "ETag:  \"v1\" ", "",
            ])
        #expect(kinds == [.final])
        #expect(head.status == 200)
        #expect(head.fields == ["content-type": "image/jpeg", "vary": "Accept, Origin", "etag": "\"v1\""])
    }

    @Test func interimAndRedirectHeadsComeBeforeTheFinalOne() {
        var head = HTTPResponseHead()
        let kinds = Self.feed(
            &head,
            [
                "HTTP/1.1 100 Continue", "",
                "HTTP/1.1 302 Found", "Location: /b", "Content-Length: 5", "",
                "HTTP/2 404", "content-length: 3", "",
            ])
        #expect(kinds == [.interim, .redirect, .final])
        #expect(head.status == 404)
        #expect(head.fields == ["content-length": "3"])
    }

    @Test(arguments: [(304, true), (302, false), (300, false)])
    func a3xxIsARedirectOnlyWithALocationAndNeverA304(status: Int, hasLocation: Bool) {
        var head = HTTPResponseHead()
        let lines = ["HTTP/1.1 \(status) X"] + (hasLocation ? ["Location: /x"] : []) + [""]
        #expect(Self.feed(&head, lines) == [.final])
    }

    @Test func trailersAfterTheFinalHeadAreIgnoredAndFoldedLinesJoin() {
        var head = HTTPResponseHead()
        _ = Self.feed(&head, ["HTTP/1.1 200 OK", "X-Long: a", "  b", "", "X-Trailer: late", ""])
        #expect(head.fields == ["x-long": "a b"])
        #expect(head.kind == .final)
    }

    @Test(arguments: [
        ("100", nil as String?, 100 as Int?), ("100", "gzip", nil), ("100", "identity", 100),
        ("-1", nil, nil), ("ten", nil, nil),
    ])
    func theExpectedBodySizeIsTheContentLengthOfAnUnencodedBody(length: String, encoding: String?, expected: Int?) {
        var head = HTTPResponseHead()
        _ = Self.feed(
            &head,
            ["HTTP/1.1 200 OK", "Content-Length: \(length)"]
                + (encoding.map { ["Content-Encoding: \($0)"] } ?? []) + [""])
        #expect(head.expectedBodyBytes == expected)
    }

    @Test(arguments: [("HTTP/1.1 404 Not Found", 404), ("HTTP/2 200", 200), ("HTTP/1.0 2000 x", 0), ("HTTP/1.1", 0)])
    func theStatusCodeIsTheSecondWordWhenItHasThreeDigits(line: String, status: Int) {
        #expect(HTTPResponseHead.statusCode(of: line) == status)
    }
}
