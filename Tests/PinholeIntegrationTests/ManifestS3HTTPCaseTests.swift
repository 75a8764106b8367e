import Foundation
import Pinhole
import PinholeTestServer
import PinholeTestSupport
import Testing

/// The HTTP-cache cases of the third case set (Tests/Fixtures/cases-s3, ids S311b and S311e), served by the
/// loopback server as their manifest entries say, and loaded twice through the real pipeline over one disk-cache
/// directory (a second pipeline on it stands for the second run).
@Suite(.timeLimit(scaledMinutes: 2))
struct ManifestS3HTTPCaseTests {
    static func input(_ name: String) async throws -> Data { try await Fixture.input(name, caseSet: "cases-s3") }

    static func offline(_ request: ImageRequest) -> ImageRequest {
        var offline = request
        offline.options = [.returnCacheDataDontLoad]
        return offline
    }

    @Test(arguments: ["max-age=0, must-revalidate", "no-cache", "max-age=0, no-cache"])
    func s311bAStaleResponseThatMustBeRevalidatedIsNotUsedOffline(cacheControl: String) async throws {
        // Given /s311/must-revalidate.png served with the case's Cache-Control and an ETag, loaded by one run
        let harness = try Harness(diskCache: true)
        harness.server.route(
            "/s311/must-revalidate.png",
            Route(
                headers: ["content-type": "image/png", "cache-control": cacheControl],
                body: try await Self.input("s311-quad.png"), etag: "\"s311b\""))
        let request = harness.request("/s311/must-revalidate.png", size: 360)
        _ = try await harness.pipeline.image(for: request)
        #expect(await harness.pipeline.diskCache()?.count == 1)
        // When a second run asks for it offline (--offline: nothing may be loaded)
        let second = try harness.restarted()
        let result = await Result { try await second.pipeline.image(for: Self.offline(request)) }
        // Then it fails as not cached: the stale copy may not be used without the server (RFC 9111 §5.2.2.2)
        guard case .failure(let failure) = result else {
            Issue.record("served offline: \(result)")
            return
        }
        #expect((failure as? PinholeError)?.code == .notCached, "\(failure)")
        #expect(harness.server.requestCount(for: "/s311/must-revalidate.png") == 1)
    }

    @Test func s311bAStaleResponseWithoutMustRevalidateIsStillUsedOffline() async throws {
        // Given the same file served with max-age=0 alone (stale at once, nothing forbids a stale answer)
        let harness = try Harness(diskCache: true)
        harness.server.route(
            "/s311/stale.png",
            Route(
                headers: ["content-type": "image/png", "cache-control": "max-age=0"],
                body: try await Self.input("s311-quad.png"), etag: "\"s311\""))
        let request = harness.request("/s311/stale.png", size: 360)
        _ = try await harness.pipeline.image(for: request)
        // When a second run asks offline, Then the stale copy answers from disk
        let second = try harness.restarted()
        let response = try await second.pipeline.image(for: Self.offline(request))
        #expect(response.source == .diskCache && (response.image.width, response.image.height) == (200, 150))
    }

    @Test func s311eVaryAcceptGivesEachAcceptItsOwnResponse() async throws {
        // Given /s311/vary-accept served with Vary: Accept and max-age=3600: the blue WebP to a first run that
        // asks with Accept: image/webp
        let harness = try Harness(diskCache: true)
        let headers = ["vary": "Accept", "cache-control": "max-age=3600"]
        harness.server.route(
            "/s311/vary-accept",
            Route(
                headers: headers.merging(["content-type": "image/webp"]) { $1 },
                body: try await Self.input("s311-blue.webp")))
        var webp = harness.request("/s311/vary-accept", size: 360)
        webp.headers = ["Accept": "image/webp"]
        let first = try await harness.pipeline.image(for: webp)
        // When the server answers image/png requests with the red PNG, and a second run asks with
        // Accept: image/png, then the first run (whose memory and disk hold the WebP answer) asks the same
        harness.server.route(
            "/s311/vary-accept",
            Route(
                headers: headers.merging(["content-type": "image/png"]) { $1 },
                body: try await Self.input("s311-red.png")))
        var png = webp
        png.headers = ["Accept": "image/png"]
        let second = try await harness.restarted().pipeline.image(for: png)
        let sameProcess = try await harness.pipeline.image(for: png)
        // Then both got the red PNG (64×48, red in every quadrant), not the stored WebP: the second run from the
        // server, the first from the entry the second stored (one disk directory)
        #expect(first.image.pixel(x: 16, y: 12).b > 200)
        for response in [second, sameProcess] {
            #expect((response.image.width, response.image.height) == (64, 48))
            for (x, y) in [(16, 12), (48, 12), (16, 36), (48, 36)] {
                #expect(response.image.matches(x: x, y: y, (255, 0, 0), tolerance: 12), "\(x),\(y)")
            }
        }
        #expect(second.source == .network && sameProcess.source == .diskCache)
        #expect(harness.server.requestCount(for: "/s311/vary-accept") == 2)
    }
}
