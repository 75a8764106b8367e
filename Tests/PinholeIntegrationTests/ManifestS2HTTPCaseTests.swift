import Foundation
import Pinhole
import PinholeTestServer
import PinholeTestSupport
import Testing

/// The HTTP-cache cases of the second case set (Tests/Fixtures/cases-s2, ids S03 and S04a), served by the loopback
/// server as their manifest entries say, and loaded twice through the real pipeline over one disk-cache directory
/// (a second pipeline on it stands for the second run).
@Suite(.timeLimit(scaledMinutes: 2))
struct ManifestS2HTTPCaseTests {
    static func input(_ name: String) async throws -> Data { try await Fixture.input(name, caseSet: "cases-s2") }

    /// Red, green, blue, yellow quadrant centres (±12 per channel), as the manifest expects.
    private func expectQuadrants(_ image: PixelImage, sourceLocation: SourceLocation = #_sourceLocation) {
        let (w, h) = (image.width, image.height)
        let centres = [
            (w / 4, h / 4, (255, 0, 0)), (3 * w / 4, h / 4, (0, 255, 0)),
            (w / 4, 3 * h / 4, (0, 0, 255)), (3 * w / 4, 3 * h / 4, (255, 255, 0)),
        ]
        for (x, y, rgb) in centres {
            #expect(
                image.matches(x: x, y: y, rgb, tolerance: 12), "\(x),\(y): \(image.pixel(x: x, y: y))",
                sourceLocation: sourceLocation)
        }
    }

    @Test func s03NoStoreIsNeverOnDiskAndTheSecondRunDownloadsAgain() async throws {
        // Given /s03/no-store.jpg served with Cache-Control: no-store and an ETag
        let harness = try Harness(diskCache: true)
        harness.server.route(
            "/s03/no-store.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "no-store"],
                body: try await Self.input("s03-no-store.jpg"), etag: "\"s03\""))
        let request = harness.request("/s03/no-store.jpg", size: 360)
        // When it is loaded by one run, then by a second run on the same cache directory
        let first = try await harness.pipeline.image(for: request)
        #expect(await harness.pipeline.diskCache()?.count == 0)
        let second = try harness.restarted()
        let again = try await second.pipeline.image(for: request)
        // Then the disk cache stays empty, the second run downloads once with no If-None-Match, and both are right
        #expect(await second.pipeline.diskCache()?.count == 0)
        #expect(second.pipeline.metrics.downloadsStarted == 1)
        #expect(second.pipeline.metrics.diskHits == 0)
        #expect(harness.server.requestCount(for: "/s03/no-store.jpg") == 2)
        #expect(harness.server.lastRequest(for: "/s03/no-store.jpg")?.headers["if-none-match"] == nil)
        #expect((first.image.width, first.image.height) == (360, 360))
        expectQuadrants(first.image)
        let identical = again.image == first.image
        #expect(identical)
    }

    @Test func s04aExpiresZeroIsAlreadyExpiredAndTheSecondRunRevalidates() async throws {
        // Given /s04/expires-0.jpg served with Expires: 0 and an ETag the server answers with 304
        let harness = try Harness(diskCache: true)
        harness.server.route(
            "/s04/expires-0.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "expires": "0"],
                body: try await Self.input("s04-expires-invalid.jpg"), etag: "\"s04a\""))
        let request = harness.request("/s04/expires-0.jpg", size: 360)
        // When it is loaded by one run, then by a second run on the same cache directory
        let first = try await harness.pipeline.image(for: request)
        let second = try harness.restarted()
        let again = try await second.pipeline.image(for: request)
        // Then the second run asked the server (If-None-Match "s04a" → 304) and used the stored bytes
        #expect(harness.server.requestCount(for: "/s04/expires-0.jpg") == 2)
        #expect(harness.server.lastRequest(for: "/s04/expires-0.jpg")?.headers["if-none-match"] == "\"s04a\"")
        #expect(harness.server.stats.notModified == 1)
        #expect(again.source == .diskCache)
        #expect((first.image.width, first.image.height) == (270, 360))
        expectQuadrants(first.image)
        let identical = again.image == first.image
        #expect(identical)
    }
}
