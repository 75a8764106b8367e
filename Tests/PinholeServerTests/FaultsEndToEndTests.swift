import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import Testing

/// An origin that stalls, resets mid-body or answers 5xx: every client gets the status that says so, and nothing
/// of the failure is kept beyond the wait a 503's `Retry-After` asks for, so once the origin is healed the same
/// URL is fetched again and served.
@Suite(.timeLimit(scaledMinutes: 2))
struct FaultsEndToEndTests {
    /// A fault of the origin and the answer it must give the client.
    enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case stallPastTheTimeout, resetMidBody, truncatedBody, status500, status502, status503

        var testDescription: String { rawValue }

        /// 504 for an origin too slow, 502 for one that fails (RFC 9110 §15.6.3, §15.6.5).
        var expected: (status: Int, code: String) {
            switch self {
            case .stallPastTheTimeout: (504, "timeout")
            case .resetMidBody: (502, "network_failure")
            case .truncatedBody: (502, "truncated")
            case .status500, .status502, .status503: (502, "http_status")
            }
        }

        func route(serving image: Data) -> Route {
            let half = image.count / 2
            let jpeg = ["content-type": "image/jpeg"]
            return switch self {
            case .stallPastTheTimeout: Route(headers: jpeg, body: image, behavior: .stall(afterBytes: half))
            case .resetMidBody: Route(headers: jpeg, body: image, behavior: .reset(afterBytes: half))
            case .truncatedBody: Route(headers: jpeg, body: image, behavior: .truncate(afterBytes: half))
            case .status500: Route(status: 500, headers: ["content-type": "text/plain"], body: Data("down".utf8))
            case .status502: Route(status: 502, headers: ["content-type": "text/plain"], body: Data("down".utf8))
            case .status503:
                Route(
                    status: 503, headers: ["content-type": "text/plain", "retry-after": "1"], body: Data("busy".utf8))
            }
        }
    }

    @Test(arguments: Fault.allCases)
    func concurrentRequestsDuringAFaultGetItsStatusAndTheHealedOriginIsAskedAgain(fault: Fault) async throws {
        // Given a server (a 2 s timeout, scaled by the load, when the origin stalls) and an origin with the fault
        let harness = try ServerHarness { configuration, _ in
            if fault == .stallPastTheTimeout { configuration.timeout = LoadFactor.scaled(.seconds(2)) }
        }
        defer { Task { await harness.stop() } }
        let image = try await OriginImages.halves()
        harness.origin.route("/p.jpg", fault.route(serving: image))
        let sizes = ["w:100", "w:100", "w:50", "w:150"]
        // When four requests for the source (two identical, two other sizes) arrive during the fault
        let failed = try await withThrowingTaskGroup(of: ServerHarness.Answer.self) { group in
            for size in sizes {
                group.addTask { try await harness.get(harness.signedPath(size, plain: "/p.jpg", extension: "jpg")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then each is answered with the fault's status and code, and may be kept by nobody
        for answer in failed {
            #expect(answer.status == fault.expected.status, "\(String(decoding: answer.body, as: UTF8.self))")
            #expect(answer.errorCode == fault.expected.code)
            #expect(answer.header("Cache-Control") == "no-store")
        }
        let askedDuringTheFault = harness.origin.requestCount(for: "/p.jpg")
        #expect(askedDuringTheFault >= 1)
        // When the origin is healed and, after the 1 s a 503 asks to wait, the same URL is asked again
        harness.origin.route("/p.jpg", .image(image))
        if fault == .status503 { try await Task.sleep(for: .milliseconds(1100)) }
        let healed = try await harness.get(harness.signedPath("w:100", plain: "/p.jpg", extension: "jpg"))
        // Then the origin is asked once more and the answer is the image: red on the left, blue on the right
        try #require(healed.status == 200)
        #expect(harness.origin.requestCount(for: "/p.jpg") == askedDuringTheFault + 1)
        let decoded = try await ServerHarness.decoded(healed.body)
        #expect(decoded.size == PixelSize(width: 100, height: 75))
        let left = decoded.image.pixel(x: 10, y: 37)
        let right = decoded.image.pixel(x: 90, y: 37)
        #expect(left.r > 180 && left.b < 80, "\(left)")
        #expect(right.b > 180 && right.r < 80, "\(right)")
        // And the other sizes asked during the fault are served too
        for (size, width) in [("w:50", 50), ("w:150", 150)] {
            let answer = try await harness.get(harness.signedPath(size, plain: "/p.jpg", extension: "jpg"))
            #expect(answer.status == 200)
            #expect(try await ServerHarness.decoded(answer.body).size.width == width)
        }
    }
}
