import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

/// Cached failures across processes (issue 29): `pinhole thumbnail --cache-dir` run twice against a loopback
/// source that answers 404; the second run answers from the disk cache when HTTP lets the 404 be stored.
@Suite(.timeLimit(scaledMinutes: 2))
struct CachedFailureCommandLineTests {
    /// Runs `pinhole thumbnail URL --cache-dir cache --json` twice; both must fail with the 404. Returns the
    /// second run's `failureHits`.
    @discardableResult
    private func runTwice(_ url: URL, in directory: TemporaryDirectory) async throws -> Int? {
        var failureHits: Int?
        for out in ["a", "b"] {
            let result = try await PinholeBinary.run(
                ["thumbnail", url.absoluteString, "--out", out, "--cache-dir", "cache", "--json"], in: directory.path)
            #expect(result.status == 1, "stderr: \(result.stderr)")
            let report = try JSONReport(result.stdout)
            #expect(report.errors.map(\.kind) == ["http_status"], "\(result.stdout)")
            failureHits = report.failureHits
        }
        return failureHits
    }

    @Test(arguments: [("max-age=600", 1), ("no-store", 2)])
    func a404WithMaxAgeIsFetchedOnceAcrossTwoRuns(cacheControl: String, originRequests: Int) async throws {
        // Given a source that answers 404 with this Cache-Control
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route(
            "/gone.jpg",
            Route(
                status: 404, headers: ["content-type": "text/plain", "cache-control": cacheControl],
                body: Data("no such image".utf8)))
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        // When two runs share one cache directory
        let failureHits = try await runTwice(server.url("/gone.jpg"), in: directory)
        // Then a storable 404 reached the origin once, a no-store one twice, and the report says so
        #expect(server.requestCount(for: "/gone.jpg") == originRequests)
        #expect(failureHits == 2 - originRequests)
    }
}
