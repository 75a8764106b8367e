import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import PinholeVips
import Testing

/// `ImagePipeline.images(for:sizes:)` with the libvips decoder on real encoded photos: one load, and per format
/// one decode per size (JPEG, WebP: shrink-on-load) or one decode and resizes (PNG).
@Suite(.timeLimit(scaledMinutes: 3))
struct SeveralSizesTests {
    static let sizes = [32, 160, 540].map { ThumbnailOptions(maxPixelSize: $0) }
    static let url = URL(string: "https://images.example/photo")!

    /// An 800×600 photo-like image: smooth gradients with a different colour in each quadrant. Made once, and
    /// small: the suite runs beside others that measure the process's allocations.
    static let source: PixelImage = {
        let (width, height) = (800, 600)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                let right = x >= width / 2
                let bottom = y >= height / 2
                pixels[offset] = UInt8(right ? 200 : 40 + x * 100 / width)
                pixels[offset + 1] = UInt8(bottom ? 180 : 30 + y * 120 / height)
                pixels[offset + 2] = UInt8(right == bottom ? 60 : 160 + (x + y) % 40)
            }
        }
        return PixelImage(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }()

    static func encoded(_ format: ImageFormat) async throws -> Data {
        try await VipsEncoder().encode(source, options: EncodingOptions(format: format, quality: 90))
    }

    /// A pipeline over the libvips decoder whose loader answers `url` with `data` (other URLs wait).
    static func pipeline(answering data: Data) -> (ImagePipeline, GatedDataLoader) {
        let loader = GatedDataLoader { url in url == Self.url ? .success(DataResponse(data: data, url: url)) : nil }
        return (ImagePipeline(configuration: .init(decoder: VipsDecoder(), dataLoader: loader)), loader)
    }

    static func meanDifference(_ a: PixelImage, _ b: PixelImage) -> Double {
        let sum = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(sum) / Double(max(1, a.pixels.count))
    }

    @Test(arguments: [ImageFormat.jpeg, .webp])
    func aShrinkOnLoadFormatIsDecodedPerSizeWhenTheLargestIsMuchOfTheSource(format: ImageFormat) async throws {
        // Given a JPEG (or WebP) source, which libvips shrinks on load
        let (pipeline, loader) = Self.pipeline(answering: try await Self.encoded(format))
        // When three sizes are asked in one call, the largest (540×405) nearly half the source's pixels
        let responses = try await pipeline.images(for: ImageRequest(url: Self.url), sizes: Self.sizes)
        // Then the bytes were loaded once and each size decoded from them, none resized
        #expect(loader.calls == [Self.url])
        #expect(pipeline.metrics.decodes == 3 && pipeline.metrics.memoryResizes == 0)
        // And each response has its size's exact pixels, in the order asked
        #expect(responses.map { "\($0.image.width)x\($0.image.height)" } == ["32x24", "160x120", "540x405"])
        #expect(responses.map(\.request.thumbnail) == Self.sizes)
    }

    @Test(arguments: [ImageFormat.jpeg, .webp])
    func aShrinkOnLoadFormatIsDecodedOnceAndResizedWhenTheLargestIsASmallPartOfTheSource(format: ImageFormat)
        async throws
    {
        // Given a JPEG (or WebP) source, which libvips shrinks on load
        let data = try await Self.encoded(format)
        let (pipeline, loader) = Self.pipeline(answering: data)
        // When three small sizes are asked in one call (the largest, 128×96, is 1/39 of the source's pixels)
        let sizes = [32, 64, 128].map { ThumbnailOptions(maxPixelSize: $0) }
        let responses = try await pipeline.images(for: ImageRequest(url: Self.url), sizes: sizes)
        // Then the bytes were loaded and decoded once, and the two smaller sizes resized from that decode
        #expect(loader.calls == [Self.url])
        #expect(pipeline.metrics.decodes == 1 && pipeline.metrics.memoryResizes == 2)
        #expect(responses.map { "\($0.image.width)x\($0.image.height)" } == ["32x24", "64x48", "128x96"])
        // And each looks like a decode of its own at that size
        for (size, response) in zip(sizes, responses) {
            let direct = try await VipsDecoder().decode(data, options: DecodingOptions(thumbnail: size))
            #expect(Self.meanDifference(response.image, direct.image) < 3, "\(size)")
        }
    }

    @Test func aFormatWithoutShrinkOnLoadIsDecodedOnceAndResized() async throws {
        // Given a PNG source, which decodes every pixel whatever the size
        let png = try await Self.encoded(.png)
        let (pipeline, loader) = Self.pipeline(answering: png)
        // When three sizes are asked in one call
        let responses = try await pipeline.images(for: ImageRequest(url: Self.url), sizes: Self.sizes)
        // Then the bytes were loaded and decoded once, and the two smaller sizes resized from that decode
        #expect(loader.calls == [Self.url])
        #expect(pipeline.metrics.decodes == 1 && pipeline.metrics.memoryResizes == 2)
        #expect(responses.map { "\($0.image.width)x\($0.image.height)" } == ["32x24", "160x120", "540x405"])
        // And each looks like a decode of its own at that size
        for (size, response) in zip(Self.sizes, responses) {
            let direct = try await VipsDecoder().decode(png, options: DecodingOptions(thumbnail: size))
            #expect(Self.meanDifference(response.image, direct.image) < 3, "\(size)")
        }
    }

    @Test func aSizeThatCannotBeResizedFaithfullyFromTheLargestIsDecodedOnItsOwn() async throws {
        // Given a PNG source, and a fit next to a crop of another aspect (which a shrunk fit cannot give)
        let (pipeline, _) = Self.pipeline(answering: try await Self.encoded(.png))
        let sizes = [
            ThumbnailOptions(maxPixelSize: 160), ThumbnailOptions(maxPixelSize: 32),
            ThumbnailOptions(size: PixelSize(width: 100, height: 50), contentMode: .fill(crop: .centre)),
        ]
        // When the three are asked in one call
        let responses = try await pipeline.images(for: ImageRequest(url: Self.url), sizes: sizes)
        // Then the smaller fit was resized from the larger, and the crop decoded by itself, at exactly its box
        #expect(pipeline.metrics.decodes == 2 && pipeline.metrics.memoryResizes == 1)
        #expect(responses.map { "\($0.image.width)x\($0.image.height)" } == ["160x120", "32x24", "100x50"])
    }

    @Test func everySizeMadeIsStoredSoALaterRequestOfItIsAMemoryHit() async throws {
        // Given three sizes of a PNG made in one call
        let (pipeline, loader) = Self.pipeline(answering: try await Self.encoded(.png))
        _ = try await pipeline.images(for: ImageRequest(url: Self.url), sizes: Self.sizes)
        // When each size is asked alone
        for size in Self.sizes {
            let response = try await pipeline.image(for: ImageRequest(url: Self.url, thumbnail: size))
            // Then the memory cache answers it
            #expect(response.source == .memoryCache, "\(size)")
        }
        // And nothing was loaded or decoded again
        #expect(loader.calls.count == 1 && pipeline.metrics.decodes == 1)
        #expect(pipeline.metrics.memoryHits == 3)
    }

    @Test func responsesFollowTheOrderOfSizesAndASizeGivenTwiceIsMadeOnce() async throws {
        // Given a JPEG source
        let (pipeline, _) = Self.pipeline(answering: try await Self.encoded(.jpeg))
        // When sizes are asked out of order, one of them twice
        let sizes = [160, 32, 160].map { ThumbnailOptions(maxPixelSize: $0) }
        let responses = try await pipeline.images(for: ImageRequest(url: Self.url), sizes: sizes)
        // Then the responses follow the sizes, and the repeated one was made once (two images in all)
        #expect(responses.map(\.image.width) == [160, 32, 160])
        #expect(pipeline.metrics.decodes + pipeline.metrics.memoryResizes == 2)
    }

    @Test func anEmptyListOfSizesIsAnInvalidRequestAndLoadsNothing() async throws {
        // Given a pipeline
        let (pipeline, loader) = Self.pipeline(answering: try await Self.encoded(.jpeg))
        // When no size is asked
        let error = await #expect(throws: PinholeError.self) {
            try await pipeline.images(for: ImageRequest(url: Self.url), sizes: [])
        }
        // Then the call fails as an invalid request, before any load
        #expect(error?.code == .invalidRequest)
        #expect(loader.calls.isEmpty)
    }

    @Test func anUntrustedPipelineRefusesALoopbackSourceBeforeAnyLoad() async throws {
        // Given a pipeline for strangers' URLs, and a source whose host name resolves to the loopback address
        // (checked after DNS, not from the URL alone)
        let loader = GatedDataLoader { url in .success(DataResponse(data: Data([0xFF, 0xD8]), url: url)) }
        var configuration = ImagePipeline.Configuration(decoder: VipsDecoder(), dataLoader: loader)
        configuration.sourcePolicy = .untrusted(allowedFileRoot: nil)
        let pipeline = ImagePipeline(configuration: configuration)
        // When several sizes of it are asked
        let error = await #expect(throws: PinholeError.self) {
            try await pipeline.images(for: ImageRequest(url: URL(string: "http://localhost/x.jpg")!), sizes: Self.sizes)
        }
        // Then the call fails as an untrusted source, and nothing was loaded
        #expect(error?.code == .untrustedSource)
        #expect(loader.calls.isEmpty)
    }

    @Test func aSourceThatIsNoImageFailsTheWholeCallWithItsError() async throws {
        // Given a source that answers with HTML
        let (pipeline, _) = Self.pipeline(answering: Data("<!doctype html><html></html>".utf8))
        // When three sizes are asked
        let error = await #expect(throws: PinholeError.self) {
            try await pipeline.images(for: ImageRequest(url: Self.url), sizes: Self.sizes)
        }
        // Then the call fails with the load's error, and nothing was decoded
        #expect(error?.code == .notAnImage)
        #expect(pipeline.metrics.decodes == 0)
    }

    @Test func cancellingTheCallStopsItsLoad() async throws {
        // Given a load that waits for the test
        let waiting = URL(string: "https://images.example/waits")!
        let (pipeline, loader) = Self.pipeline(answering: Data())
        defer { loader.close() }
        let task = Task { try await pipeline.images(for: ImageRequest(url: waiting), sizes: Self.sizes) }
        defer { task.cancel() }
        try #require(await eventually { loader.waitingURLs == [waiting] })
        // When the calling task is cancelled
        task.cancel()
        // Then the call ends with CancellationError, and its load was cancelled
        await #expect(throws: CancellationError.self) { try await task.cancellableValue }
        #expect(await eventually { loader.cancelled == [waiting] })
        #expect(pipeline.metrics.decodes == 0)
    }
}
