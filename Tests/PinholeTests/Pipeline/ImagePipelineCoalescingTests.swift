import Foundation
import Testing

@testable import Pinhole

@Suite(.timeLimit(.minutes(1)))
struct ImagePipelineCoalescingTests {
    @Test func fortyConcurrentRequestsForFourURLsLoadFourTimes() async throws {
        // Given a pipeline whose loads wait for the test
        let fixture = PipelineFixture()
        let urls = (0..<4).map { PipelineFixture.url("photo-\($0).jpg") }
        // When 40 callers ask for 4 URLs at once
        try await withThrowingTaskGroup(of: ImageResponse.self) { group in
            for index in 0..<40 {
                let request = ImageRequest(url: urls[index % 4], maxPixelSize: 100)
                group.addTask { try await fixture.pipeline.image(for: request) }
            }
            #expect(await eventually { fixture.pipeline.metrics.coalescedJoins == 36 })
            fixture.loader.releaseAutomatically()
            var count = 0
            for try await response in group {
                #expect(response.image.width == 100)
                count += 1
            }
            #expect(count == 40)
        }
        // Then exactly one load and one decode happened per URL
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
        #expect(await eventually { fixture.pipeline.metrics.coalescedJoins == 1 })
        fixture.loader.releaseAutomatically()
        // Then both get their own size from one download and two decodes
        let (a, b) = try await (small, large)
        #expect((a.image.width, a.image.height) == (100, 75))
        #expect((b.image.width, b.image.height) == (200, 150))
        #expect(fixture.loader.calls.count == 1)
        #expect(fixture.decoder.decodeCount == 2)
    }

    @Test func sourceKeyOverrideCoalescesSignedURLs() async throws {
        // Given two signed URLs of the same image with one source key
        let fixture = PipelineFixture()
        let first = ImageRequest(url: PipelineFixture.url("a.jpg?sig=1"), thumbnail: .init(maxPixelSize: 50), sourceKey: "a")
        let second = ImageRequest(url: PipelineFixture.url("a.jpg?sig=2"), thumbnail: .init(maxPixelSize: 50), sourceKey: "a")
        fixture.loader.releaseAutomatically()
        // When both load, one after the other
        _ = try await fixture.pipeline.image(for: first)
        let response = try await fixture.pipeline.image(for: second)
        // Then the second is a memory hit
        #expect(response.source == .memoryCache)
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
        #expect(ImageRequest(url: url, maxPixelSize: 100).imageKey != ImageRequest(url: url, maxPixelSize: 200).imageKey)
        #expect(ImageRequest(url: url, maxPixelSize: 100).sourceKey == ImageRequest(url: url, maxPixelSize: 200).sourceKey)
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
        let failing = Task { try await fixture.pipeline.image(for: request) }
        #expect(await eventually { fixture.loader.waitingURLs == [url] })
        fixture.loader.release(url, with: .failure(PinholeError(.httpStatus, "HTTP 500", httpStatusCode: 500)))
        await #expect(throws: PinholeError.self) { try await failing.value }
        // When the request is made again
        fixture.loader.releaseAutomatically()
        let response = try await fixture.pipeline.image(for: request)
        // Then it went back to the loader and succeeded
        #expect(response.source == .network)
        #expect(fixture.loader.calls.count == 2)
        #expect(fixture.pipeline.metrics.downloadsFailed == 1)
    }

    @Test func htmlBodyFailsAsNotAnImage() async throws {
        let fixture = PipelineFixture()
        let url = PipelineFixture.url("page.jpg")
        let task = Task { try await fixture.pipeline.image(for: ImageRequest(url: url, maxPixelSize: 64)) }
        #expect(await eventually { fixture.loader.waitingURLs == [url] })
        fixture.loader.release(url, with: .success(DataResponse(data: Data("<!DOCTYPE html><html></html>".utf8), url: url)))
        let error = await #expect(throws: PinholeError.self) { try await task.value }
        #expect(error?.code == .notAnImage)
        #expect(error?.detectedType == "HTML")
        #expect(fixture.decoder.decodeCount == 0)
    }
}
