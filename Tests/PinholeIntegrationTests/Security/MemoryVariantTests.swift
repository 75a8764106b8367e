import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Testing

/// The size-aware memory lookup (a smaller thumbnail shrunk from a larger cached one) against hostile sizes and
/// against reloads: sides whose products overflow, and sizes made from bytes older than a reload.
@Suite(.timeLimit(scaledMinutes: 2))
struct MemoryVariantTests {
    /// libvips; with `directory`, a disk cache there that keeps thumbnails encoded (`.automatic`).
    static func pipeline(directory: URL? = nil) -> ImagePipeline {
        RequestAPIIntegrationTests.pipeline(directory: directory)
    }

    @Test(arguments: [(1, 1 << 62), (1 << 62, 1), (1 << 62, 1 << 62), (3, (1 << 62) - 1)])
    func aFillBoxWhoseSidesOverflowFailsWithoutATrap(width: Int, height: Int) async throws {
        // Given a 100×100 fill of a photo in the memory cache
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route("/q.jpg", .image(try await CrossRequestCacheTests.jpeg((20, 200, 20))))
        let pipeline = Self.pipeline()
        let url = server.url("/q.jpg")
        let fill = ThumbnailOptions.ContentMode.fill(crop: .centre)
        _ = try await pipeline.image(
            for: ImageRequest(
                url: url, thumbnail: ThumbnailOptions(size: PixelSize(width: 100, height: 100), contentMode: fill)))
        // When a fill of a box whose sides multiply past Int.max is asked (with and without upscaling)
        for upscaling in [false, true] {
            let box = ThumbnailOptions(
                size: PixelSize(width: width, height: height), contentMode: fill, allowsUpscaling: upscaling)
            let result = await Result { try await pipeline.image(for: ImageRequest(url: url, thumbnail: box)) }
            // Then the process is still here, and the answer is an image or a typed error
            switch result {
            case .success(let response): #expect(response.image.width >= 1 && response.image.height >= 1)
            case .failure(let error): #expect(error is PinholeError, "\(error)")
            }
        }
        #expect(PixelSize(width: width, height: height).pixelCount >= max(width, height))
    }

    @Test(arguments: [false, true])
    func afterAReloadNoSmallerSizeComesFromTheOlderBytes(diskCache: Bool) async throws {
        // Given a photo (red) shown at 400 px and at 100 px: both in the memory cache (and, with a disk cache,
        // stored encoded on disk)
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route("/r.jpg", .image(try await CrossRequestCacheTests.jpeg((230, 20, 20))))
        let temporary = diskCache ? try TemporaryDirectory(prefix: "pinhole-it") : nil
        defer { temporary?.remove() }
        let directory = temporary?.url
        let pipeline = Self.pipeline(directory: directory)
        let url = server.url("/r.jpg")
        // (the smaller first, so it is decoded and stored, not shrunk from the larger)
        _ = try await pipeline.image(
            for: ImageRequest(url: url, thumbnail: ThumbnailOptions(maxPixelSize: 100, allowsUpscaling: true)))
        _ = try await pipeline.image(
            for: ImageRequest(url: url, thumbnail: ThumbnailOptions(maxPixelSize: 400, allowsUpscaling: true)))
        // When the photo changes (blue) and the 400 px one is reloaded
        server.route("/r.jpg", .image(try await CrossRequestCacheTests.jpeg((20, 20, 230))))
        var reload = ImageRequest(url: url, thumbnail: ThumbnailOptions(maxPixelSize: 400, allowsUpscaling: true))
        reload.options = [.reloadIgnoringCachedData]
        let reloaded = try await pipeline.image(for: reload)
        // Then a 100 px and a 50 px request show the new photo, not the pre-reload picture, also once the memory
        // cache is gone (the stored thumbnails)
        if diskCache { pipeline.removeAllCachedImages() }
        let small = try await pipeline.image(
            for: ImageRequest(url: url, thumbnail: ThumbnailOptions(maxPixelSize: 100, allowsUpscaling: true)))
        let smaller = try await pipeline.image(
            for: ImageRequest(url: url, thumbnail: ThumbnailOptions(maxPixelSize: 50, allowsUpscaling: true)))
        for response in [reloaded, small, smaller] {
            #expect(
                CrossRequestCacheTests.isBlue(response),
                "\(CrossRequestCacheTests.colour(response)) from \(response.source)")
        }
    }
}
