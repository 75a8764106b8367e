import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// A slot that takes over a prefetch keeps its download: ``ImagePipeline/imageTask(for:)`` joins the running job
/// before it returns, so the gallery's `slot.load(request)` then `prefetcher.stopPrefetching(...)` in one
/// main-actor turn never leaves the job without a subscriber (it used to join from inside its own task, and the
/// stop cancelled the job and its download in 6-15 of 20 tries).
@MainActor
@Suite(.timeLimit(scaledMinutes: 2))
struct ImageSlotPrefetchHandoverTests {
    @Test func aSlotBoundInTheTurnAPrefetchStopsKeepsItsDownload() async throws {
        // Given a prefetcher and 50 images, each prefetched until its download has started
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        var slots: [ImageSlot] = []
        defer { for slot in slots { slot.cancel() } }
        for round in 0..<50 {
            let request = ImageRequest(url: PipelineFixture.url("handover-\(round).jpg"), maxPixelSize: 40)
            let url = request.url
            prefetcher.startPrefetching(with: [request])
            try #require(await eventually { fixture.loader.waitingURLs.contains(url) }, "round \(round)")

            // When, in one main-actor turn, a slot is bound to the image and the prefetch is stopped
            let slot = ImageSlot(pipeline: fixture.pipeline)
            slots.append(slot)
            slot.load(request)
            prefetcher.stopPrefetching(with: [request])

            // Then the one download serves the slot: nothing is cancelled or loaded again
            fixture.loader.release(url)
            let loader = fixture.loader
            try #require(
                await eventually {
                    let shown = await MainActor.run { slot.phase.response != nil }
                    return shown || loader.calls.filter { $0 == url }.count > 1 || loader.cancelled.contains(url)
                },
                "round \(round)")
            let loads = loader.calls.filter { $0 == url }.count
            #expect(loads == 1, "round \(round): \(loads) loads")
            #expect(!fixture.loader.cancelled.contains(url), "round \(round)")
            let image = try #require(slot.phase.response?.image, "round \(round)")
            #expect(FakeImage.isImage(image, of: url))
        }
        #expect(fixture.pipeline.metrics.downloadsCancelled == 0)
    }

    @Test func aTaskMadeWhileAJobRunsRaisesItsPriorityBeforeTheCallReturns() async throws {
        // Given one network slot held by a blocker, and a low-priority prefetch waiting for it
        let fixture = PipelineFixture(networkLimit: 1)
        defer { fixture.loader.close() }
        let blocker = fixture.pipeline.imageTask(for: ImageRequest(url: PipelineFixture.url("blocker.jpg")))
        defer { blocker.cancel() }
        try #require(await eventually { fixture.loader.waitingURLs.count == 1 })
        let request = ImageRequest(url: PipelineFixture.url("queued.jpg"), maxPixelSize: 40, priority: .low)
        let prefetch = fixture.pipeline.imageTask(for: request)
        defer { prefetch.cancel() }
        try #require(await eventually { fixture.pipeline.networkQueue.waitingPriorities == [.low] })

        // When a high-priority task for the same image is made
        var urgent = request
        urgent.priority = .high
        let task = fixture.pipeline.imageTask(for: urgent)
        defer { task.cancel() }

        // Then it has joined the job by the time the call returns: the queued download is already high
        #expect(fixture.pipeline.networkQueue.waitingPriorities == [.high])
        #expect(fixture.pipeline.activeImageJobCount == 2)
    }

    @Test func aTaskCancelledRightAfterItJoinedLeavesTheJob() async throws {
        // Given a prefetch whose download has started
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        let request = ImageRequest(url: PipelineFixture.url("left.jpg"), maxPixelSize: 40)
        prefetcher.startPrefetching(with: [request])
        try #require(await eventually { fixture.loader.waitingURLs == [request.url] })

        // When a task joins it and is cancelled at once, and the prefetch stops
        let task = fixture.pipeline.imageTask(for: request)
        task.cancel()
        prefetcher.stopPrefetching(with: [request])

        // Then nobody wants the job any more: it and its download are cancelled, and the task says so
        #expect(await eventually { fixture.loader.cancelled == [request.url] })
        #expect(await eventually { fixture.pipeline.activeImageJobCount == 0 })
        await #expect(throws: CancellationError.self) { try await task.response }
    }

    @Test func aTaskTheMemoryCacheAnswersLeavesTheJobItJoined() async throws {
        // Given a prefetch whose download has started, and its image put in the memory cache meanwhile
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        let request = ImageRequest(url: PipelineFixture.url("cached.jpg"), maxPixelSize: 40)
        prefetcher.startPrefetching(with: [request])
        try #require(await eventually { fixture.loader.waitingURLs == [request.url] })
        let cached = FakeImage.decoded(source: request.url.absoluteString, thumbnail: request.thumbnail)
        let memoryCache = try #require(fixture.pipeline.configuration.memoryCache)
        memoryCache.insert(cached, for: request.imageKey, cost: cached.image.cost)

        // When a task for it is made (it joins the job), and answers from the memory cache
        let task = fixture.pipeline.imageTask(for: request)
        defer { task.cancel() }
        #expect(try await task.response.source == .memoryCache)

        // Then it no longer holds the job: stopping the prefetch cancels the download
        prefetcher.stopPrefetching(with: [request])
        #expect(await eventually { fixture.loader.cancelled == [request.url] })
        #expect(await eventually { fixture.pipeline.activeImageJobCount == 0 })
    }
}
