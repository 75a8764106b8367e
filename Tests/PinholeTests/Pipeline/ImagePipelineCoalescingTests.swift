import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

@Suite(.timeLimit(scaledMinutes: 1))
struct ImagePipelineCoalescingTests {
    @Test func fortyConcurrentRequestsForFourURLsLoadFourTimesAndEachCallerGetsItsURLsImage() async throws {
        // Given a pipeline whose loads wait for the test, and four URLs of one length whose images differ
        let fixture = PipelineFixture()
        let urls = (0..<4).map { PipelineFixture.url("photo-\($0).jpg") }
        try #require(Set(urls.map(FakeImage.colour(for:))).count == 4)
        // When 40 callers ask for 4 URLs at once
        let responses = try await withThrowingTaskGroup(of: (URL, ImageResponse).self) { group in
            for index in 0..<40 {
                let request = ImageRequest(url: urls[index % 4], maxPixelSize: 100)
                group.addTask { (request.url, try await fixture.pipeline.image(for: request)) }
            }
            try #require(await eventually { fixture.pipeline.metrics.coalescedJoins == 36 })
            fixture.loader.releaseAutomatically()
            var responses: [(URL, ImageResponse)] = []
            for try await response in group { responses.append(response) }
            return responses
        }
        // Then every caller got its own URL's image, at its size
        #expect(responses.count == 40)
        for (url, response) in responses {
            #expect(FakeImage.isImage(response.image, of: url), "\(url.lastPathComponent) got another URL's image")
            #expect(response.image.width == 100)
        }
        // And exactly one load and one decode happened per URL
        #expect(fixture.loader.calls.count == 4)
        #expect(Set(fixture.loader.calls) == Set(urls))
        #expect(fixture.decoder.decodeCount == 4)
    }

    @Test func twoSizesOfOneURLShareOneDownload() async throws {
        // Given two requests for the same URL at different sizes
        let fixture = PipelineFixture()
        let url = PipelineFixture.url("shared.jpg")
        async let small = fixture.pipeline.image(for: ImageRequest(url: url, maxPixelSize: 100))
        async let large = fixture.pipeline.image(for: ImageRequest(url: url, maxPixelSize: 200))
        try #require(await eventually { fixture.pipeline.metrics.coalescedJoins == 1 })
        fixture.loader.releaseAutomatically()
        // Then both get their own size of that URL's image from one download and two decodes
        let (a, b) = try await (small, large)
        #expect((a.image.width, a.image.height) == (100, 75))
        #expect((b.image.width, b.image.height) == (200, 150))
        #expect(FakeImage.isImage(a.image, of: url) && FakeImage.isImage(b.image, of: url))
        #expect(fixture.loader.calls.count == 1)
        #expect(fixture.decoder.decodeCount == 2)
    }

    @Test func twoURLsAtOnceEachGetTheirOwnImage() async throws {
        // Given two URLs of the same length, loading at the same time
        let fixture = PipelineFixture()
        let first = PipelineFixture.url("left.jpg")
        let second = PipelineFixture.url("rite.jpg")
        try #require(FakeImage.colour(for: first) != FakeImage.colour(for: second))
        async let a = fixture.pipeline.image(for: ImageRequest(url: first, maxPixelSize: 50))
        async let b = fixture.pipeline.image(for: ImageRequest(url: second, maxPixelSize: 50))
        try #require(await eventually { Set(fixture.loader.waitingURLs) == [first, second] })
        // When the second answers first
        fixture.loader.release(second)
        fixture.loader.release(first)
        // Then each caller has its own URL's pixels
        let (left, right) = try await (a, b)
        #expect(FakeImage.isImage(left.image, of: first))
        #expect(FakeImage.isImage(right.image, of: second))
    }

    @Test func sourceKeyOverrideCoalescesSignedURLs() async throws {
        // Given two signed URLs of the same image with one source key
        let fixture = PipelineFixture()
        let first = ImageRequest(
            url: PipelineFixture.url("a.jpg?sig=1"), thumbnail: .init(maxPixelSize: 50), sourceKey: "a")
        let second = ImageRequest(
            url: PipelineFixture.url("a.jpg?sig=2"), thumbnail: .init(maxPixelSize: 50), sourceKey: "a")
        fixture.loader.releaseAutomatically()
        // When both load, one after the other
        _ = try await fixture.pipeline.image(for: first)
        let response = try await fixture.pipeline.image(for: second)
        // Then the second is a memory hit, with the first URL's image
        #expect(response.source == .memoryCache)
        #expect(FakeImage.isImage(response.image, of: first.url))
        #expect(fixture.loader.calls.count == 1)
    }

    @Test func defaultSourceKeyKeepsTheQueryAndDropsTheFragment() {
        let url = URL(string: "https://a.example/p.jpg?w=1#section")!
        #expect(ImageRequest(url: url).sourceKey == "https://a.example/p.jpg?w=1")
        let other = URL(string: "https://a.example/p.jpg?w=2")!
        #expect(ImageRequest(url: url).imageKey != ImageRequest(url: other).imageKey)
    }

    @Test func imageKeyIncludesTheThumbnailSize() {
        let url = PipelineFixture.url("k.jpg")
        #expect(
            ImageRequest(url: url, maxPixelSize: 100).imageKey != ImageRequest(url: url, maxPixelSize: 200).imageKey)
        #expect(
            ImageRequest(url: url, maxPixelSize: 100).sourceKey == ImageRequest(url: url, maxPixelSize: 200).sourceKey)
    }

    @Test func memoryCacheHitIsSynchronousAndCreatesNoJob() async throws {
        // Given an image loaded once
        let fixture = PipelineFixture()
        fixture.loader.releaseAutomatically()
        let request = ImageRequest(url: PipelineFixture.url("hit.jpg"), maxPixelSize: 64)
        let first = try await fixture.pipeline.image(for: request)
        #expect(first.source == .network)
        // When it is asked again
        let cached = try #require(fixture.pipeline.cachedImage(for: request))
        let second = try await fixture.pipeline.image(for: request)
        // Then both answers come from memory, with the same pixels, and nothing was loaded again
        #expect(cached.source == .memoryCache)
        #expect(second.source == .memoryCache)
        #expect(second.image == first.image)
        #expect(fixture.loader.calls.count == 1)
        #expect(fixture.pipeline.metrics.memoryHits == 2)  // the synchronous lookup counts too
    }

    @Test func failureIsNotCachedAndTheNextRequestLoadsAgain() async throws {
        // Given a first load that fails
        let fixture = PipelineFixture()
        let url = PipelineFixture.url("flaky.jpg")
        let request = ImageRequest(url: url, maxPixelSize: 64)
        async let failing = Result { try await fixture.pipeline.image(for: request) }
        // (A load that never reaches the loader fails the test here, at the bound; the `async let` is then
        // cancelled on the way out, so nothing waits for ever.)
        try #require(await eventually { fixture.loader.waitingURLs == [url] })
        #expect(fixture.loader.release(url, with: .failure(PinholeError(.httpStatus, "HTTP 500", httpStatusCode: 500))))
        let failure = await failing
        #expect(throws: PinholeError.self) { try failure.get() }
        // When the request is made again
        fixture.loader.releaseAutomatically()
        let response = try await fixture.pipeline.image(for: request)
        // Then it went back to the loader and succeeded
        #expect(response.source == .network)
        #expect(FakeImage.isImage(response.image, of: url))
        #expect(fixture.loader.calls.count == 2)
        #expect(fixture.pipeline.metrics.downloadsFailed == 1)
    }

    @Test func htmlBodyFailsAsNotAnImage() async throws {
        // Given a load that gets an HTML page
        let fixture = PipelineFixture()
        let url = PipelineFixture.url("page.jpg")
        async let loading = Result { try await fixture.pipeline.image(for: ImageRequest(url: url, maxPixelSize: 64)) }
        try #require(await eventually { fixture.loader.waitingURLs == [url] })
        let page = DataResponse(data: Data("<!DOCTYPE html><html></html>".utf8), url: url)
        #expect(fixture.loader.release(url, with: .success(page)))
        // Then it fails as not an image, says what it got, and never reaches the decoder
        let result = await loading
        let error = #expect(throws: PinholeError.self) { try result.get() }
        #expect(error?.code == .notAnImage)
        #expect(error?.detectedType == "HTML")
        #expect(fixture.decoder.decodeCount == 0)
    }
}
