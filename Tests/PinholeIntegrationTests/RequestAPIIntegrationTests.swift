import Foundation
import Pinhole
import PinholeCurl
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Synchronization
import Testing

/// The request API against real libvips and the loopback server: encoded thumbnails on disk (a cold start
/// decodes nothing), the size-aware memory lookup, processors, private headers, progressive previews.
@Suite(.timeLimit(scaledMinutes: 2))
struct RequestAPIIntegrationTests {
    /// A pipeline with libvips decoding and encoding, a disk cache in `directory` with `policy`.
    static func pipeline(directory: URL?, policy: DiskCachePolicy = .automatic) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(
            decoder: VipsDecoder(),
            dataLoader: SchemeRoutingDataLoader(http: HTTPDataLoader(configuration: Harness.fastLoader())),
            encoder: VipsEncoder())
        configuration.diskCacheDirectory = directory
        configuration.diskCachePolicy = policy
        return ImagePipeline(configuration: configuration)
    }

    static func box(_ w: Int, _ h: Int, _ mode: ThumbnailOptions.ContentMode) -> ThumbnailOptions {
        ThumbnailOptions(size: PixelSize(width: w, height: h), contentMode: mode)
    }

    /// Mean absolute difference per byte of two images of one size and format.
    static func meanDifference(_ a: PixelImage, _ b: PixelImage) -> Double {
        let sum = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(sum) / Double(max(1, a.pixels.count))
    }

    @Test func aColdStartDecodesNothingItHasShownBefore() async throws {
        // Given a gallery's three kinds of request served over HTTP, and a pipeline storing encoded thumbnails
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route("/photo.jpg", .image(try await Fixture.input("size-key-source.jpg")))
        let temporary = try TemporaryDirectory(prefix: "pinhole-it")
        defer { temporary.remove() }
        let directory = temporary.url
        let requests = [
            ImageRequest(url: server.url("/photo.jpg"), thumbnail: Self.box(100, 100, .fill(crop: .attention))),
            ImageRequest(
                url: server.url("/photo.jpg"), thumbnail: Self.box(64, 64, .aspectFit),
                processors: [ImageProcessors.Circle()]),
            ImageRequest(url: server.url("/photo.jpg"), maxPixelSize: 120),
        ]
        let first = Self.pipeline(directory: directory)
        var shown: [PixelImage] = []
        for request in requests { shown.append(try await first.image(for: request).image) }
        #expect(first.metrics.thumbnailDiskWrites == 3 && first.metrics.decodes == 3)
        // And the originals were not kept (automatic: thumbnails only for thumbnail requests; each size loaded anew)
        #expect(await first.cache.cachedData(for: requests[2]) == nil)
        let downloads = server.requestCount(for: "/photo.jpg")
        #expect(downloads == 3)

        // When the app starts again (a new pipeline, empty memory) and shows the same images
        let second = Self.pipeline(directory: directory)
        var again: [ImageResponse] = []
        for request in requests { again.append(try await second.image(for: request)) }
        // Then nothing was downloaded or decoded in full: each came from its encoded thumbnail on disk
        #expect(second.metrics.downloadsStarted == 0 && second.metrics.decodes == 0)
        #expect(second.metrics.thumbnailDiskHits == 3)
        #expect(server.requestCount(for: "/photo.jpg") == downloads)
        for (index, response) in again.enumerated() {
            #expect(response.source == .diskCache)
            #expect(response.image.width == shown[index].width && response.image.height == shown[index].height)
            #expect(response.image.pixelFormat == shown[index].pixelFormat)
            #expect(Self.meanDifference(response.image, shown[index]) < 4, "request \(index)")
            #expect(response.info.width == 400 && response.info.height == 300 && response.info.format == .jpeg)
        }
        // And the circle kept its transparency (PNG)
        #expect(again[1].image.pixel(x: 0, y: 0).a == 0 && again[1].image.pixel(x: 32, y: 32).a == 255)
    }

    @Test func anEncodedThumbnailFollowsItsOriginalsFreshness() async throws {
        // Given a thumbnail made from a response that must be revalidated before every use (max-age=0)
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route(
            "/stale.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "max-age=0"],
                body: try await Fixture.input("size-key-source.jpg")))
        let temporary = try TemporaryDirectory(prefix: "pinhole-it")
        defer { temporary.remove() }
        let directory = temporary.url
        let stale = ImageRequest(url: server.url("/stale.jpg"), maxPixelSize: 50)
        _ = try await Self.pipeline(directory: directory).image(for: stale)
        // When asked again by a new pipeline, Then the stale thumbnail is not used online: the server is asked
        let online = Self.pipeline(directory: directory)
        #expect(try await online.image(for: stale).source == .network)
        #expect(server.requestCount(for: "/stale.jpg") == 2)
        // And offline, the stale thumbnail answers as it is
        var offline = stale
        offline.options = [.returnCacheDataDontLoad]
        let cold = Self.pipeline(directory: directory)
        #expect(try await cold.image(for: offline).source == .diskCache && cold.metrics.thumbnailDiskHits == 1)
    }

    @Test func aSmallerSizeIsShrunkFromALargerCachedImage() async throws {
        // Given a 400×300 photo shown at 200 px and 200×200 filled (no disk cache: two downloads)
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route("/q.jpg", .image(try await Fixture.input("size-key-source.jpg")))
        let pipeline = Self.pipeline(directory: nil)
        let url = server.url("/q.jpg")
        _ = try await pipeline.image(for: ImageRequest(url: url, maxPixelSize: 200))
        _ = try await pipeline.image(for: ImageRequest(url: url, thumbnail: Self.box(200, 200, .fill(crop: .centre))))
        #expect(pipeline.metrics.decodes == 2)
        // When smaller sizes of the same source and mode are asked
        let fit = try await pipeline.image(for: ImageRequest(url: url, maxPixelSize: 100))
        let fill = try await pipeline.image(
            for: ImageRequest(url: url, thumbnail: Self.box(80, 80, .fill(crop: .centre))))
        // Then they were shrunk from memory: no download, no decode, and exactly the sizes a decode gives
        #expect(pipeline.metrics.memoryResizes == 2 && pipeline.metrics.decodes == 2)
        #expect(server.requestCount(for: "/q.jpg") == 2)
        #expect(fit.source == .memoryCache && fit.image.width == 100 && fit.image.height == 75)
        #expect(fill.image.width == 80 && fill.image.height == 80)
        // And they look like a decode of their own (quadrant colours in place)
        let direct = try await VipsDecoder().decode(
            try await Fixture.input("size-key-source.jpg"),
            options: DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 100)))
        #expect(Self.meanDifference(fit.image, direct.image) < 4)
        // And a box of another aspect, or a larger box, is decoded anew
        _ = try await pipeline.image(for: ImageRequest(url: url, thumbnail: Self.box(80, 40, .fill(crop: .centre))))
        _ = try await pipeline.image(for: ImageRequest(url: url, maxPixelSize: 300))
        #expect(pipeline.metrics.memoryResizes == 2 && pipeline.metrics.decodes == 4)
    }

    @Test func processorsRunOnRealPixelsAndTheirResultIsCached() async throws {
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route("/avatar.jpg", .image(try await Fixture.input("size-key-source.jpg")))
        let pipeline = Self.pipeline(directory: nil)
        let avatar = ImageRequest(
            url: server.url("/avatar.jpg"), thumbnail: Self.box(96, 96, .fill(crop: .centre)),
            processors: [ImageProcessors.Circle(), ImageProcessors.Greyscale()])
        // When loaded
        let response = try await pipeline.image(for: avatar)
        // Then it is a 96×96 grey circle with transparent corners
        let image = response.image
        #expect(image.width == 96 && image.height == 96 && image.pixelFormat == .rgba8)
        #expect(image.pixel(x: 0, y: 0).a == 0 && image.pixel(x: 48, y: 48).a == 255)
        let middle = image.pixel(x: 30, y: 30)
        #expect(middle.r == middle.g && middle.g == middle.b)
        // And the memory cache holds that processed image
        #expect(pipeline.cachedImage(for: avatar)?.image == image)
    }

    @Test func requestHeadersReachTheServerAndPrivateImagesStayPrivate() async throws {
        // Given a server that answers /me.jpg only with the right credentials
        let server = try PinholeTestServer()
        defer { server.stop() }
        let photo = try await Fixture.input("size-key-source.jpg")
        server.setHandler { request in
            guard request.path == "/me.jpg" else { return nil }
            return request.headers["authorization"] == "Bearer alice"
                ? .image(photo) : Route(status: 401, body: Data("no".utf8))
        }
        let temporary = try TemporaryDirectory(prefix: "pinhole-it")
        defer { temporary.remove() }
        let directory = temporary.url
        let url = server.url("/me.jpg")
        // When alice's pipeline loads it with her header (memory and disk now hold it)
        let alice = Self.pipeline(directory: directory, policy: .storeAll)
        let mine = try await alice.image(
            for: ImageRequest(
                url: url, thumbnail: ThumbnailOptions(maxPixelSize: 64), headers: ["Authorization": "Bearer alice"]))
        #expect(mine.image.width == 64)
        #expect(server.lastRequest(for: "/me.jpg")?.headers["authorization"] == "Bearer alice")
        // Then a pipeline without credentials on the same disk cache is not served it: the server refuses it
        let anonymous = Self.pipeline(directory: directory, policy: .storeAll)
        await #expect { _ = try await anonymous.image(for: ImageRequest(url: url, maxPixelSize: 64)) } throws: {
            ($0 as? PinholeError)?.httpStatusCode == 401
        }
        // And neither is an anonymous request on alice's own pipeline (memory)
        await #expect { _ = try await alice.image(for: ImageRequest(url: url, maxPixelSize: 64)) } throws: {
            ($0 as? PinholeError)?.httpStatusCode == 401
        }
        #expect(server.requestCount(for: "/me.jpg") == 3)
    }
}

/// `ImagePipeline.shared`: the libvips pipeline people reach for first.
@Suite(.timeLimit(scaledMinutes: 1))
struct SharedPipelineTests {
    @Test func theSharedPipelineDecodesAFileURLWithLibvips() async throws {
        let url = Fixture.cases.appendingPathComponent("inputs/orient-6.jpg")
        let response = try await ImagePipeline.shared.image(for: ImageRequest(url: url, maxPixelSize: 60))
        // orient-6 is stored 80×120 and displayed 120×80: the decoder is libvips (orientation applied)
        #expect(response.image.width == 60 && response.image.height == 40)
        #expect(ImagePipeline.shared === ImagePipeline.shared)
        #expect(ImagePipeline.shared.configuration.encoder is VipsEncoder)
    }
}
