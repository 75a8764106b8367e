import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

@Suite(.timeLimit(scaledMinutes: 1))
struct ImagePipelineCancellationTests {
    @Test func cancelledCallerLeavesAtOnceAndTheLastOneCancelsTheDownload() async throws {
        // Given two callers waiting on one download
        let fixture = PipelineFixture()
        let url = PipelineFixture.url("gone.jpg")
        let request = ImageRequest(url: url, maxPixelSize: 64)
        let first = Task { try await fixture.pipeline.image(for: request) }
        let second = Task { try await fixture.pipeline.image(for: request) }
        defer {
            first.cancel()
            second.cancel()
        }
        try #require(
            await eventually {
                fixture.loader.waitingURLs == [url] && fixture.pipeline.metrics.coalescedJoins == 1
            })
        // When the first is cancelled, it leaves with CancellationError while the download goes on
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.cancellableValue }
        #expect(fixture.loader.cancelled.isEmpty)
        // When the second is cancelled too, the download is cancelled
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.cancellableValue }
        #expect(await eventually { fixture.loader.cancelled == [url] })
        #expect(await eventually { fixture.pipeline.activeImageJobCount == 0 })
        #expect(fixture.pipeline.metrics.downloadsCancelled == 1)
    }

    @Test func oneOfTwoCallersCancelledTheOtherStillGetsItsImage() async throws {
        let fixture = PipelineFixture()
        let url = PipelineFixture.url("kept.jpg")
        let request = ImageRequest(url: url, maxPixelSize: 64)
        let leaving = Task { try await fixture.pipeline.image(for: request) }
        let staying = Task { try await fixture.pipeline.image(for: request) }
        defer {
            leaving.cancel()
            staying.cancel()
        }
        try #require(await eventually { fixture.pipeline.metrics.coalescedJoins == 1 })
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.cancellableValue }
        fixture.loader.release(url)
        let response = try await staying.cancellableValue
        #expect(response.image.width == 64)
        #expect(FakeImage.isImage(response.image, of: url))
        #expect(fixture.loader.cancelled.isEmpty)
    }

    @Test func taskCancelledBeforeStartingNeverLoads() async throws {
        let fixture = PipelineFixture()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await fixture.pipeline.image(
                for: ImageRequest(url: PipelineFixture.url("never.jpg"), maxPixelSize: 64))
        }
        defer { task.cancel() }
        await #expect(throws: CancellationError.self) { try await task.cancellableValue }
        #expect(fixture.loader.calls.isEmpty)
    }

    @Test func differentSizesKeepTheSharedDownloadUntilBothLeave() async throws {
        // Given two image jobs (two sizes) sharing one data job
        let fixture = PipelineFixture()
        let url = PipelineFixture.url("two-sizes.jpg")
        let small = Task { try await fixture.pipeline.image(for: ImageRequest(url: url, maxPixelSize: 50)) }
        let large = Task { try await fixture.pipeline.image(for: ImageRequest(url: url, maxPixelSize: 150)) }
        defer {
            small.cancel()
            large.cancel()
        }
        try #require(
            await eventually {
                fixture.loader.waitingURLs == [url] && fixture.pipeline.metrics.coalescedJoins == 1
            })
        // When one size is cancelled, the download goes on for the other
        small.cancel()
        await #expect(throws: CancellationError.self) { try await small.cancellableValue }
        #expect(fixture.loader.cancelled.isEmpty)
        fixture.loader.release(url)
        #expect(try await large.cancellableValue.image.width == 150)
    }

    @Test func imageTaskCancelThrowsCancellationError() async throws {
        let fixture = PipelineFixture()
        let url = PipelineFixture.url("task.jpg")
        let task = fixture.pipeline.imageTask(for: ImageRequest(url: url, maxPixelSize: 64))
        defer { task.cancel() }
        try #require(await eventually { fixture.loader.waitingURLs == [url] })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.response }
        #expect(await eventually { fixture.loader.cancelled == [url] })
        #expect(task.isCancelled)
    }
}
