import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// Binding a slot again to the request it already holds (SwiftUI calls `.task`/`onAppear` again) neither
/// cancels nor restarts its load; a different request still replaces it.
@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageSlotRebindingTests {
    @Test func loadingTheSameRequestAgainWhileItLoadsNeitherCancelsNorRestarts() async throws {
        // Given a slot whose load waits at the source, showing the bytes received so far
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }
        let slot = ImageSlot(pipeline: fixture.pipeline)
        defer { slot.cancel() }
        let request = ImageRequest(url: PipelineFixture.url("row.jpg"), maxPixelSize: 40)
        slot.load(request)
        try #require(await eventually { fixture.loader.waitingURLs == [request.url] })
        let running = try #require(slot.imageTask)
        let progress = ImageTask.Progress(receivedBytes: 100, expectedBytes: 1000)
        running.receive(progress)
        try #require(await eventually { await MainActor.run { slot.progress == progress } })
        // When it is bound to the same request twice more
        slot.load(request)
        slot.load(ImageRequest(url: request.url, maxPixelSize: 40))
        // Then the same load goes on: the same task, not cancelled, no other caller joined its job (a restart
        // would join it: the old task leaves only after this turn), and the progress shown is kept
        #expect(slot.imageTask === running)
        #expect(!running.isCancelled)
        #expect(fixture.pipeline.metrics.coalescedJoins == 0)
        #expect(slot.progress == progress)
        #expect(slot.phase.isLoading)
        // And the one load finishes the slot
        fixture.loader.releaseAutomatically()
        #expect(await eventually { await MainActor.run { slot.phase.response != nil } })
        #expect(fixture.loader.calls.count == 1)
        #expect(fixture.loader.cancelled.isEmpty)
    }

    @Test func loadingTheSameRequestAgainWhileItIsShownDoesNotReload() async throws {
        // Given a slot showing an image, with no memory cache to answer a reload
        let fixture = PipelineFixture(memoryCache: false)
        fixture.loader.releaseAutomatically()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        defer { slot.cancel() }
        let request = ImageRequest(url: PipelineFixture.url("shown.jpg"), maxPixelSize: 40)
        slot.load(request)
        try #require(await eventually { await MainActor.run { slot.phase.response != nil } })
        // When it is bound to the same request again
        slot.load(request)
        // Then it keeps showing it without loading
        #expect(slot.phase.response != nil)
        #expect(fixture.loader.calls.count == 1)
    }

    @Test func theSameRequestAtAnotherPriorityReordersTheRunningLoadInsteadOfRestartingIt() async throws {
        // Given one network slot held by a blocker, a slot's low-priority load and a normal one waiting behind it
        let fixture = PipelineFixture(networkLimit: 1)
        let blocker = fixture.pipeline.imageTask(
            for: ImageRequest(url: PipelineFixture.url("blocker.jpg"), maxPixelSize: 8))
        defer { blocker.cancel() }
        try #require(await eventually { fixture.loader.waitingURLs.count == 1 })
        let slot = ImageSlot(pipeline: fixture.pipeline)
        defer { slot.cancel() }
        let row = ImageRequest(url: PipelineFixture.url("row.jpg"), maxPixelSize: 8, priority: .low)
        slot.load(row)
        try #require(await eventually { fixture.pipeline.networkQueueCounts.waiting == 1 })
        let other = fixture.pipeline.imageTask(
            for: ImageRequest(url: PipelineFixture.url("other.jpg"), maxPixelSize: 8))
        defer { other.cancel() }
        try #require(await eventually { fixture.pipeline.networkQueueCounts.waiting == 2 })
        // When the slot is bound to the same request at high priority
        var urgent = row
        urgent.priority = .high
        slot.load(urgent)
        // Then the row's load was not restarted, and it goes first when the network slot frees
        #expect(fixture.loader.cancelled.isEmpty)
        #expect(fixture.pipeline.networkQueue.waitingPriorities == [.high, .normal])
        #expect(slot.request?.priority == .high)
        fixture.loader.release(PipelineFixture.url("blocker.jpg"))
        try #require(await eventually { fixture.loader.calls.count == 2 })
        #expect(fixture.loader.calls.map(\.lastPathComponent) == ["blocker.jpg", "row.jpg"])
        fixture.loader.releaseAutomatically()
    }

    @Test func aDifferentRequestStillCancelsTheOldOne() async throws {
        let fixture = PipelineFixture()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        defer { slot.cancel() }
        let old = ImageRequest(url: PipelineFixture.url("old.jpg"), maxPixelSize: 32)
        slot.load(old)
        try #require(await eventually { fixture.loader.waitingURLs == [old.url] })
        slot.load(ImageRequest(url: PipelineFixture.url("new.jpg"), maxPixelSize: 32))
        #expect(await eventually { fixture.loader.cancelled == [old.url] })
        fixture.loader.releaseAutomatically()
        #expect(
            await eventually {
                await MainActor.run { slot.request?.url.lastPathComponent == "new.jpg" && slot.phase.response != nil }
            })
    }

    @Test func anotherSizeOfTheSameURLIsADifferentRequest() async throws {
        // Given a slot loading a 32-pixel thumbnail
        let fixture = PipelineFixture()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        defer { slot.cancel() }
        let old = ImageRequest(url: PipelineFixture.url("sized.jpg"), maxPixelSize: 32)
        slot.load(old)
        try #require(await eventually { fixture.loader.waitingURLs == [old.url] })
        // When it is bound to the 64-pixel thumbnail of the same URL
        slot.load(ImageRequest(url: old.url, maxPixelSize: 64))
        // Then the 32-pixel job is gone (the download may go on for the new size) and the slot shows 64 pixels
        #expect(await eventually { fixture.pipeline.activeImageJobCount == 1 })
        fixture.loader.releaseAutomatically()
        #expect(await eventually { await MainActor.run { slot.phase.response?.image.width == 64 } })
    }

    @Test func afterCancelTheSameRequestLoadsAgain() async throws {
        let fixture = PipelineFixture()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        defer { slot.cancel() }
        let request = ImageRequest(url: PipelineFixture.url("back.jpg"), maxPixelSize: 32)
        slot.load(request)
        try #require(await eventually { fixture.loader.waitingURLs == [request.url] })
        // When the row disappears, then appears again
        slot.cancel()
        try #require(await eventually { fixture.loader.cancelled == [request.url] })
        slot.load(request)
        // Then it loads again
        #expect(slot.phase.isLoading)
        #expect(await eventually { fixture.loader.calls.count == 2 })
        fixture.loader.releaseAutomatically()
        #expect(await eventually { await MainActor.run { slot.phase.response != nil } })
    }

    @Test func afterAFailureTheSameRequestLoadsAgain() async throws {
        let fixture = PipelineFixture()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        defer { slot.cancel() }
        let request = ImageRequest(url: PipelineFixture.url("flaky.jpg"), maxPixelSize: 32)
        slot.load(request)
        try #require(await eventually { fixture.loader.waitingURLs == [request.url] })
        fixture.loader.release(request.url, with: .failure(PinholeError(.httpStatus, "HTTP 503", httpStatusCode: 503)))
        try #require(
            await eventually {
                await MainActor.run { if case .failure = slot.phase { true } else { false } }
            })
        fixture.loader.releaseAutomatically()
        slot.load(request)
        #expect(await eventually { await MainActor.run { slot.phase.response != nil } })
        #expect(fixture.loader.calls.count == 2)
    }
}
