import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// An image made from an HTTP response stays in the memory cache no longer than that response is fresh
/// (``ImagePipeline/Configuration/memoryCacheFollowsHTTPFreshness``, issue 25): the memory cache followed its own
/// limits alone, so a `max-age=60` image was served for hours and a `no-cache` one without revalidation.
@Suite(.timeLimit(scaledMinutes: 1))
struct MemoryCacheHTTPFreshnessTests {
    @Test func anImageFromAMaxAgeResponseLeavesTheMemoryCacheWhenTheResponseGoesStale() async throws {
        // Given an image loaded from a `max-age=600` response, with the memory cache on a manual clock
        let clock = ManualClock()
        let (pipeline, loader) = Self.pipeline(clock: clock)
        defer { loader.close() }
        let url = PipelineFixture.url("max-age.jpg")
        let request = ImageRequest(url: url, maxPixelSize: 32)
        loader.release(url, with: .success(Self.response(for: url, cacheControl: "max-age=600")))
        _ = try await pipeline.image(for: request)

        // When half its lifetime passes, then all of it
        clock.advance(by: .seconds(300))
        let halfway = pipeline.cachedImage(for: request)
        clock.advance(by: .seconds(301))
        let after = pipeline.cachedImage(for: request)

        // Then the memory cache answers halfway, not after, and the next request loads again
        #expect(halfway.map { FakeImage.isImage($0.image, of: url) } == true)
        #expect(after == nil, "a stale image is served from memory")
        loader.release(url)
        let reloaded = try await pipeline.image(for: request)
        #expect(reloaded.source == .network && loader.calls == [url, url])
    }

    @Test(arguments: ["no-cache", "max-age=0", "no-store"])
    func anImageFromAResponseThatMustBeRevalidatedIsNotServedFromMemory(cacheControl: String) async throws {
        // Given an image loaded from a response that may not be used again without asking the origin
        let (pipeline, loader) = Self.pipeline(clock: ManualClock())
        defer { loader.close() }
        let url = PipelineFixture.url("revalidate-\(cacheControl).jpg")
        let request = ImageRequest(url: url, maxPixelSize: 32)
        loader.release(url, with: .success(Self.response(for: url, cacheControl: cacheControl)))
        let first = try await pipeline.image(for: request)

        // When the same image is asked for again, at once
        let cached = pipeline.cachedImage(for: request)
        loader.release(url)
        let second = try await pipeline.image(for: request)

        // Then the memory cache does not answer: the second request goes to the origin
        #expect(FakeImage.isImage(first.image, of: url))
        #expect(cached == nil)
        #expect(second.source == .network && loader.calls == [url, url])
    }

    @Test func anImageFromAResponseWithoutFreshnessStaysInMemory() async throws {
        // Given an image loaded from a response that says nothing of its freshness (no `Cache-Control`, `Expires`)
        let clock = ManualClock()
        let (pipeline, loader) = Self.pipeline(clock: clock)
        defer { loader.close() }
        let url = PipelineFixture.url("silent.jpg")
        let request = ImageRequest(url: url, maxPixelSize: 32)
        loader.release(url)
        _ = try await pipeline.image(for: request)

        // When a day passes
        clock.advance(by: .seconds(24 * 3600))

        // Then the memory cache still answers (the default freshness, a week, applies)
        #expect(pipeline.cachedImage(for: request).map { FakeImage.isImage($0.image, of: url) } == true)
        #expect(loader.calls == [url])
    }

    @Test func switchedOffTheMemoryCacheKeepsAnImagePastItsResponsesFreshness() async throws {
        // Given a pipeline that does not follow HTTP freshness in memory, and an image from a `max-age=60` response
        let clock = ManualClock()
        let (pipeline, loader) = Self.pipeline(clock: clock, followsFreshness: false)
        defer { loader.close() }
        let url = PipelineFixture.url("kept.jpg")
        let request = ImageRequest(url: url, maxPixelSize: 32)
        loader.release(url, with: .success(Self.response(for: url, cacheControl: "max-age=60")))
        _ = try await pipeline.image(for: request)

        // When an hour passes
        clock.advance(by: .seconds(3600))

        // Then the memory cache still answers (its own limits alone apply)
        #expect(pipeline.cachedImage(for: request).map { FakeImage.isImage($0.image, of: url) } == true)
    }

    @Test func aSmallerSizeMadeFromACachedImageLeavesTheMemoryCacheWithIt() async throws {
        // Given a large image from a `max-age=600` response, and a smaller size the memory lookup made from it
        let clock = ManualClock()
        let (pipeline, loader) = Self.pipeline(clock: clock, resizing: true)
        defer { loader.close() }
        let url = PipelineFixture.url("resized.jpg")
        loader.release(url, with: .success(Self.response(for: url, cacheControl: "max-age=600")))
        _ = try await pipeline.image(for: ImageRequest(url: url, maxPixelSize: 200))
        clock.advance(by: .seconds(300))
        let small = ImageRequest(url: url, maxPixelSize: 50)
        let resized = try await pipeline.image(for: small)
        try #require(resized.source == .memoryCache && loader.calls == [url])

        // When the large image's response goes stale
        clock.advance(by: .seconds(301))

        // Then the smaller size is not served from memory either
        #expect(pipeline.cachedImage(for: small) == nil, "a copy outlives the image it was made from")
    }

    private static func pipeline(
        clock: ManualClock, followsFreshness: Bool = true, resizing: Bool = false
    ) -> (ImagePipeline, GatedDataLoader) {
        let loader = GatedDataLoader()
        let decoder: any ImageDecoding = resizing ? ResizingFakeDecoder() : FakeDecoder()
        var configuration = ImagePipeline.Configuration(decoder: decoder, dataLoader: loader)
        configuration.memoryCache = MemoryCache(clock: clock)
        configuration.memoryCacheFollowsHTTPFreshness = followsFreshness
        return (ImagePipeline(configuration: configuration), loader)
    }

    private static func response(for url: URL, cacheControl: String) -> DataResponse {
        DataResponse(data: FakeImage.body(for: url), headers: ["cache-control": cacheControl], url: url)
    }
}

/// ``FakeDecoder`` that can also shrink its images (for the size-aware memory lookup): the copy has the output's
/// size and the source's colour.
private struct ResizingFakeDecoder: ImageDecoding, ImageResizing {
    private let decoder = FakeDecoder()

    func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        try await decoder.decode(data, options: options)
    }

    func resize(_ image: PixelImage, to layout: ThumbnailOptions.Layout) throws -> PixelImage {
        let size = layout.output
        let pixels = (0..<(size.width * size.height)).flatMap { _ in image.pixels.prefix(3) }
        return PixelImage(width: size.width, height: size.height, pixelFormat: .rgb8, pixels: pixels)
    }
}
