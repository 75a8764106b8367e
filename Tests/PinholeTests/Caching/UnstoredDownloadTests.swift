import Foundation
import Pinhole
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// A download's bytes reach the disk cache only once a decode proved them good. A second size of the source
/// asked for in between (the download over, its decode under way) takes those bytes rather than downloading
/// them again: before, it found no data job to join and no disk entry, and cost the origin one more request
/// (a cluster of `pinhole serve` instances saw a source fetched twice while its hash ring was stable).
@Suite(.timeLimit(scaledMinutes: 1))
struct UnstoredDownloadTests {
    /// A pipeline with a disk cache over a gated loader and a decoder that holds each size until released.
    private struct Fixture {
        let directory: TemporaryDirectory
        let loader = GatedDataLoader()
        let decoder = HeldDecoder()
        let pipeline: ImagePipeline

        init() throws {
            directory = try TemporaryDirectory()
            var configuration = ImagePipeline.Configuration(decoder: decoder, dataLoader: loader)
            configuration.diskCacheDirectory = directory.url
            pipeline = ImagePipeline(configuration: configuration)
        }

        func close() {
            decoder.releaseAll()
            loader.close()
        }

        /// Starts the 32 px request of `url`, answers its download with `response`, and waits until its decode
        /// holds the bytes (the data job has ended, nothing is on disk yet).
        func firstSizeDecoding(_ url: URL, response: DataResponse) async throws -> ImageTask {
            let first = pipeline.imageTask(for: ImageRequest(url: url, maxPixelSize: 32))
            loader.release(url, with: .success(response))
            try #require(await eventually { decoder.heldSizes == [32] })
            return first
        }

        /// Starts the 64 px request of `url` and waits until it either decodes or waits for a download.
        func secondSize(_ url: URL, options: ImageRequest.Options = []) async throws -> ImageTask {
            let second = pipeline.imageTask(for: ImageRequest(url: url, maxPixelSize: 64, options: options))
            try #require(await eventually { decoder.heldSizes.contains(64) || loader.calls.count > 1 })
            return second
        }
    }

    @Test func anotherSizeAskedForWhileTheDownloadAwaitsItsStoreTakesItsBytes() async throws {
        // Given a source whose download ended and whose first decode is still under way
        let fixture = try Fixture()
        defer { fixture.close() }
        let url = PipelineFixture.url("reused.jpg")
        let first = try await fixture.firstSizeDecoding(url, response: FakeImage.response(for: url))

        // When another size of it is asked for, and then both decodes finish
        let second = try await fixture.secondSize(url)
        let originRequests = fixture.loader.calls
        fixture.loader.releaseAutomatically()
        fixture.decoder.releaseAll()
        let small = try await first.response
        let large = try await second.response

        // Then the origin was asked once, both images are the source's, and its bytes are on disk once
        #expect(originRequests == [url])
        #expect(FakeImage.isImage(small.image, of: url) && FakeImage.isImage(large.image, of: url))
        #expect(large.image.width == 64)
        #expect(fixture.pipeline.metrics.downloadsReused == 1)
        let disk = try #require(await fixture.pipeline.diskCache())
        #expect(await eventually { await disk.entry(for: ImageRequest(url: url).sourceKey) != nil })
    }

    /// `no-store`: HTTP forbids reusing the bytes; `max-age=0`: stored, but stale at once, so not without asking.
    @Test(arguments: ["no-store", "max-age=0"])
    func aResponseThatMayNotAnswerWithoutTheOriginIsDownloadedAgainForTheNextSize(cacheControl: String)
        async throws
    {
        // Given a source answered with that `Cache-Control`, its first decode under way
        let fixture = try Fixture()
        defer { fixture.close() }
        let url = PipelineFixture.url("\(cacheControl).jpg")
        var response = FakeImage.response(for: url)
        response.headers["cache-control"] = cacheControl
        let first = try await fixture.firstSizeDecoding(url, response: response)

        // When another size of it is asked for
        let second = try await fixture.secondSize(url)
        fixture.loader.release(url, with: .success(response))
        fixture.decoder.releaseAll()
        _ = try await first.response
        let large = try await second.response

        // Then the origin was asked again
        #expect(fixture.loader.calls == [url, url])
        #expect(FakeImage.isImage(large.image, of: url))
        #expect(fixture.pipeline.metrics.downloadsReused == 0)
    }

    @Test func aReloadDownloadsAgainWhileTheLastDownloadAwaitsItsStore() async throws {
        // Given a source whose first decode is under way
        let fixture = try Fixture()
        defer { fixture.close() }
        let url = PipelineFixture.url("reload.jpg")
        let first = try await fixture.firstSizeDecoding(url, response: FakeImage.response(for: url))

        // When another size is asked for with `reloadIgnoringCachedData`
        let second = try await fixture.secondSize(url, options: .reloadIgnoringCachedData)
        fixture.loader.release(url)
        fixture.decoder.releaseAll()
        _ = try await first.response
        _ = try await second.response

        // Then the reload went to the origin
        #expect(fixture.loader.calls == [url, url])
        #expect(fixture.pipeline.metrics.downloadsReused == 0)
    }

    @Test func bytesThatFailedToDecodeAreNotKeptForTheNextSize() async throws {
        // Given a source whose only download decoded as nothing (JPEG magic, then garbage) and failed
        let directory = try TemporaryDirectory()
        let loader = GatedDataLoader()
        defer { loader.close() }
        var configuration = ImagePipeline.Configuration(decoder: FakeDecoder(), dataLoader: loader)
        configuration.diskCacheDirectory = directory.url
        let pipeline = ImagePipeline(configuration: configuration)
        let url = PipelineFixture.url("garbage.jpg")
        let garbage = DataResponse(
            data: Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x5A, count: 64)),
            headers: ["cache-control": "max-age=600"], url: url)
        loader.release(url, with: .success(garbage))
        await #expect(throws: PinholeError.self) {
            _ = try await pipeline.image(for: ImageRequest(url: url, maxPixelSize: 32))
        }

        // When another size is asked for, and the origin now sends the image
        loader.release(url)
        let response = try await pipeline.image(for: ImageRequest(url: url, maxPixelSize: 64))

        // Then the origin was asked again: bytes nobody uses are not held
        #expect(loader.calls == [url, url])
        #expect(FakeImage.isImage(response.image, of: url))
        #expect(pipeline.metrics.downloadsReused == 0)
    }
}
