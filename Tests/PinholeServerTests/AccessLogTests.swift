import Foundation
import Testing

@testable import PinholeServer

/// The access log's lines are JSON whatever a client puts in its target.
struct AccessLogTests {
    @Test(arguments: ["/plain", "/a\"b\\c", "/tab\there\nnew", "/\u{01}\u{7F}\u{2028}", "/ünïcödé/✓", ""])
    func everyLineParsesAsJSONWithTheTargetIntact(target: String) throws {
        // Given a request with a hostile target and a failed answer
        let request = ServerRequest(method: "GET", target: target, clientAddress: "::1")
        let response = ServerResponse(status: 422, errorCode: "not_an_image", servedFrom: nil)
        // When its line is written
        let line = AccessLog.line(request, response: response, seconds: 0.01234, now: Date(timeIntervalSince1970: 0))
        // Then it parses, and gives the fields back exactly
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["target"] as? String == target)
        #expect(object["status"] as? Int == 422)
        #expect(object["error"] as? String == "not_an_image")
        #expect(object["time"] as? String == "1970-01-01T00:00:00Z")
        #expect(object["ms"] as? Double == 12.3)
        #expect(!line.contains("\n"))
    }

    @Test func aRequestWithoutAnAnswerIsLoggedAsAborted() throws {
        let line = AccessLog.line(ServerRequest(method: "GET", target: "/x"), response: nil, seconds: 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["aborted"] as? Bool == true)
        #expect(object["status"] as? Int == 0)
    }
}
