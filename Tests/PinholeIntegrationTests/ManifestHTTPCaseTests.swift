import Foundation
import Pinhole
import PinholeTestServer
import PinholeTestSupport
import Testing

/// The failure-corpus entries that have an `http` block (Tests/Fixtures/cases/manifest.json), served by a real
/// loopback server as the manifest says and loaded through the real pipeline.
@Suite(.timeLimit(scaledMinutes: 2))
struct ManifestHTTPCaseTests {
    @Test func c03OrientationSurvivesTheDiskCacheRoundTrip() async throws {
        // Given orient-8.jpg served once, with a disk cache
        let harness = try Harness(diskCache: true)
        harness.server.route("/orient-8.jpg", .image(try await Fixture.input("orient-8.jpg")))
        let request = harness.request("/orient-8.jpg", size: nil)
        // When it is loaded from the network, then from disk (memory evicted), then after a restart
        let network = try await harness.pipeline.image(for: request)
        harness.pipeline.removeAllCachedImages()
        let disk = try await harness.pipeline.image(for: request)
        let restarted = try harness.restarted()
        let third = try await restarted.pipeline.image(for: request)
        // Then all three are upright (quadrants red, green, blue, yellow), identical, and the server saw one request
        #expect(network.source == .network)
        #expect(disk.source == .diskCache)
        #expect(third.source == .diskCache)
        #expect((network.image.width, network.image.height) == (120, 80))
        for (x, y, rgb) in [
            (30, 20, (255, 0, 0)), (90, 20, (0, 255, 0)), (30, 60, (0, 0, 255)), (90, 60, (255, 255, 0)),
        ] {
            #expect(network.image.matches(x: x, y: y, rgb, tolerance: 24))
        }
        #expect(disk.image == network.image)
        #expect(third.image == network.image)
        #expect(harness.server.requestCount(for: "/orient-8.jpg") == 1)
    }

    @Test func c09EmptyBodyIsEmptyDataAndNotCached() async throws {
        let harness = try Harness(diskCache: true)
        harness.server.route("/empty.jpg", .image(Data()))
        let request = harness.request("/empty.jpg")
        let error = await #expect(throws: PinholeError.self) { try await harness.pipeline.image(for: request) }
        #expect(error?.code == .emptyData)
        // A later request goes to the network again
        _ = await #expect(throws: PinholeError.self) { try await harness.pipeline.image(for: request) }
        #expect(harness.server.requestCount(for: "/empty.jpg") == 2)
        #expect(await harness.pipeline.diskCache()?.count == 0)
    }

    @Test func c10HTMLServedAsJPEGIsNotAnImageAndRetried() async throws {
        let harness = try Harness(diskCache: true)
        harness.server.route("/html.jpg", .image(try await Fixture.input("html-200-as-jpeg.jpg")))
        let request = harness.request("/html.jpg")
        let error = await #expect(throws: PinholeError.self) { try await harness.pipeline.image(for: request) }
        #expect(error?.code == .notAnImage)
        #expect(error?.detectedType == "HTML")
        _ = try? await harness.pipeline.image(for: request)
        #expect(harness.server.requestCount(for: "/html.jpg") == 2)
        #expect(await harness.pipeline.diskCache()?.count == 0)
    }

    /// With `failureMemoryTTL` off, the manifest's scenario as written: the next plain request hits the network.
    /// With the default (30 s, issue 29), the 404 answers again from memory until then, and a reload (what
    /// `ImageSlot.retry()` sends) hits the network; either way nothing is stored on disk and the body is not decoded.
    @Test(arguments: [true, false])
    func c11NotFoundIsAnHTTPErrorAndALaterRequestSucceeds(keepsFailures: Bool) async throws {
        // Given a URL that answers 404 with an HTML body
        let harness = try Harness(diskCache: true) { if !keepsFailures { $0.failureMemoryTTL = .zero } }
        let body = try await Fixture.input("not-found-404.html")
        harness.server.route("/late.jpg", Route(status: 404, headers: ["content-type": "text/html"], body: body))
        let request = harness.request("/late.jpg")
        // When it is loaded
        let error = await #expect(throws: PinholeError.self) { try await harness.pipeline.image(for: request) }
        // Then the error carries the status, and nothing was cached
        #expect(error?.code == .httpStatus)
        #expect(error?.httpStatusCode == 404)
        #expect(await harness.pipeline.diskCache()?.count == 0)
        // When the file appears, the next load succeeds from the network (a reload, while the 404 is kept)
        harness.server.route("/late.jpg", .image(try await Fixture.input("redirect-target.jpg")))
        var later = request
        if keepsFailures {
            let kept = await #expect(throws: PinholeError.self) { try await harness.pipeline.image(for: request) }
            #expect(kept?.httpStatusCode == 404)
            #expect(harness.server.requestCount(for: "/late.jpg") == 1)
            later.options.insert(.reloadIgnoringCachedData)
        }
        let response = try await harness.pipeline.image(for: later)
        #expect(response.source == .network)
        #expect((response.image.width, response.image.height) == (64, 48))
    }

    @Test(arguments: [("png-as-jpg.jpg", "png", 64, 32), ("webp-as-jpg.jpg", "webp", 64, 48)])
    func c12FormatComesFromMagicBytesNotContentType(file: String, format: String, width: Int, height: Int) async throws
    {
        let harness = try Harness()
        harness.server.route("/\(file)", .image(try await Fixture.input(file), contentType: "image/jpeg"))
        let response = try await harness.pipeline.image(for: harness.request("/\(file)", size: nil))
        #expect(response.info.format.name == format)
        #expect((response.image.width, response.image.height) == (width, height))
    }

    @Test func c13SVGBehindAPNGTypeIsRasterisedAtItsIntrinsicSize() async throws {
        let harness = try Harness()
        harness.server.route("/svg.png", .image(try await Fixture.input("svg-as-png.png"), contentType: "image/png"))
        let response = try await harness.pipeline.image(for: harness.request("/svg.png", size: nil))
        #expect(response.info.format == .svg)
        #expect((response.image.width, response.image.height) == (100, 50))
        #expect(response.image.matches(x: 25, y: 25, (255, 0, 0), tolerance: 8))
        #expect(response.image.matches(x: 75, y: 25, (0, 0, 255), tolerance: 8))
    }

    @Test func c27SizesAreSeparateImagesOfOneDownload() async throws {
        let harness = try Harness()
        harness.server.route("/size-key.jpg", .image(try await Fixture.input("size-key-source.jpg")))
        let small = try await harness.pipeline.image(for: harness.request("/size-key.jpg", size: 100))
        let large = try await harness.pipeline.image(for: harness.request("/size-key.jpg", size: 200))
        let again = try await harness.pipeline.image(for: harness.request("/size-key.jpg", size: 100))
        #expect((small.image.width, small.image.height) == (100, 75))
        #expect((large.image.width, large.image.height) == (200, 150))
        #expect(again.source == .memoryCache)
        #expect(again.image == small.image)
        // The second size re-decodes but does not download again: the original is kept on disk or coalesced.
        #expect(harness.server.requestCount(for: "/size-key.jpg") <= 2)
    }

    @Test func c27SizesRequestedTogetherDownloadOnce() async throws {
        let harness = try Harness()
        harness.server.route(
            "/size-key.jpg", .image(try await Fixture.input("size-key-source.jpg"), latency: .milliseconds(600)))
        async let small = harness.pipeline.image(for: harness.request("/size-key.jpg", size: 100))
        async let large = harness.pipeline.image(for: harness.request("/size-key.jpg", size: 200))
        let (a, b) = try await (small, large)
        #expect((a.image.width, b.image.width) == (100, 200))
        #expect(harness.server.requestCount(for: "/size-key.jpg") == 1)
    }

    @Test func c29RedirectsAreFollowedAndLoopsFailClearly() async throws {
        let harness = try Harness()
        harness.server.route("/r1", .redirect(to: "/r2", status: 302))
        harness.server.route("/r2", .redirect(to: "/final", status: 307))
        harness.server.route("/final", .image(try await Fixture.input("redirect-target.jpg")))
        harness.server.route("/loop1", .redirect(to: "/loop2"))
        harness.server.route("/loop2", .redirect(to: "/loop1"))
        let response = try await harness.pipeline.image(for: harness.request("/r1", size: nil))
        #expect((response.image.width, response.image.height) == (64, 48))
        #expect(response.image.matches(x: 16, y: 12, (255, 0, 0), tolerance: 24))
        let error = await #expect(throws: PinholeError.self) {
            try await harness.pipeline.image(for: harness.request("/loop1"))
        }
        #expect(error?.code.kind == "too_many_redirects")
    }

    @Test func c31TrickleThatKeepsProgressingCompletes() async throws {
        // Given 1 KiB every 250 ms (about 20 s for 78 KB) and a 1 s stall timeout
        let harness = try Harness()
        let body = try await Fixture.input("slow-noise.jpg")
        harness.server.route(
            "/slow.jpg",
            Route(
                headers: ["content-type": "image/jpeg"], body: body,
                behavior: .trickle(bytes: 1024, every: .milliseconds(250))))
        // When it loads, Then it succeeds at full size
        let response = try await harness.pipeline.image(for: harness.request("/slow.jpg", size: nil))
        #expect((response.image.width, response.image.height) == (320, 320))
    }

    @Test func c31StalledTransferTimesOutAndLeavesNothingCached() async throws {
        // Given headers and 200 bytes, then silence
        let harness = try Harness(diskCache: true)
        let body = try await Fixture.input("slow-noise.jpg")
        harness.server.route(
            "/stall.jpg",
            Route(
                headers: ["content-type": "image/jpeg"], body: body,
                behavior: .stall(afterBytes: 200)))
        let request = harness.request("/stall.jpg")
        // When it loads
        let error = await #expect(throws: PinholeError.self) { try await harness.pipeline.image(for: request) }
        // Then it fails with a timeout, the server saw the client go, and nothing is cached
        #expect(error?.code == .timeout)
        #expect(await eventually { harness.server.stats.requestsAborted == 1 })
        #expect(await harness.pipeline.diskCache()?.count == 0)
        #expect(harness.pipeline.cachedImage(for: request) == nil)
    }

    @Test @MainActor func c32TheTargetShowsItsLatestRequest() async throws {
        // Given /a answers after 2 s and /b at once
        let harness = try Harness()
        harness.server.route(
            "/a.png", .image(try await Fixture.input("race-a.png"), contentType: "image/png", latency: .seconds(2)))
        harness.server.route("/b.png", .image(try await Fixture.input("race-b.png"), contentType: "image/png"))
        let slot = ImageSlot(pipeline: harness.pipeline)
        // When the target asks for /a, then /b
        slot.load(harness.request("/a.png", size: nil))
        try #require(await eventually { harness.server.requestCount(for: "/a.png") == 1 })
        slot.load(harness.request("/b.png", size: nil))
        // Then it shows /b (blue), and the request for /a was abandoned at the server
        try #require(await eventually { await MainActor.run { slot.phase.response != nil } })
        let shown = try #require(slot.phase.response)
        #expect(shown.image.matches(x: 16, y: 16, (0, 0, 255), tolerance: 0))
        #expect(await eventually { harness.server.stats.requestsAborted == 1 })
        try await Task.sleep(for: .seconds(2.5))
        #expect(slot.phase.response?.image.matches(x: 16, y: 16, (0, 0, 255), tolerance: 0) == true)
    }
}
