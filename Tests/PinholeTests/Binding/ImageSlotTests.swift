import Foundation
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageSlotTests {
    @Test func showsTheImageOfTheCurrentRequest() async throws {
        // Given a slot bound to a request
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }  // the slot's own tasks must not outlive the test on the gate
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let url = PipelineFixture.url("row-1.jpg")
        slot.load(ImageRequest(url: url, maxPixelSize: 40))
        #expect(slot.phase.isLoading)
        // When the load finishes
        try #require(await eventually { fixture.loader.waitingURLs == [url] })
        fixture.loader.release(url)
        // Then the slot shows that image
        try #require(await eventually { await MainActor.run { slot.phase.response != nil } })
        #expect(slot.phase.response?.image.width == 40)
        #expect(slot.phase.response.map { FakeImage.isImage($0.image, of: url) } == true)
    }

    @Test func lateResultForAnOlderRequestIsDropped() async throws {
        // Given a slot bound to A, whose load has started and waits in the loader
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }  // the slot's own tasks must not outlive the test on the gate
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let a = ImageRequest(url: PipelineFixture.url("a.png"), maxPixelSize: 32)
        let b = ImageRequest(url: PipelineFixture.url("b.png"), maxPixelSize: 32)
        try #require(FakeImage.colour(for: a.url) != FakeImage.colour(for: b.url))
        slot.load(a)
        try #require(await eventually { fixture.loader.waitingURLs == [a.url] })
        let taskA = try #require(slot.task)
        let imageTaskA = try #require(slot.imageTask)

        // When A's image arrives and A's task has its result, but the main actor has not applied it yet (this test
        // holds the main actor: a bounded wait that never suspends), and the slot moves to B
        _ = fixture.loader.release(a.url)
        let deadline = ContinuousClock.now + LoadFactor.scaled(.seconds(10))
        while imageTaskA.eventState.withLock({ $0.finished == nil }) && ContinuousClock.now < deadline { usleep(200) }
        try #require(imageTaskA.eventState.withLock { $0.finished } != nil, "A's load never finished")
        slot.load(b)
        await taskA.value

        // Then A's result was dropped, never shown: the slot still waits for B
        #expect(slot.staleResultsDropped == 1)
        let showsA = slot.phase.response.map { FakeImage.isImage($0.image, of: a.url) } ?? false
        #expect(!showsA, "the slot shows A's image while bound to B")
        let stillLoading = slot.phase.isLoading
        #expect(stillLoading)
        #expect(slot.request == b)
        // And when B arrives, the slot shows B's own pixels
        try #require(await eventually { fixture.loader.waitingURLs == [b.url] })
        _ = fixture.loader.release(b.url)
        try #require(await eventually { await MainActor.run { slot.phase.response != nil } })
        let shown = try #require(slot.phase.response)
        #expect(FakeImage.isImage(shown.image, of: b.url))
    }

    @Test func aCallerStillWaitingOnTheOlderRequestDoesNotReachTheSlot() async throws {
        // Given a slot that moved from request A (slow) to request B; A is held by a second caller, so its
        // download goes on and completes after B's
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }  // the slot's own tasks must not outlive the test on the gate
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let a = ImageRequest(url: PipelineFixture.url("a.png"), maxPixelSize: 32)
        let b = ImageRequest(url: PipelineFixture.url("b.png"), maxPixelSize: 32)
        try #require(FakeImage.colour(for: a.url) != FakeImage.colour(for: b.url))
        async let keeper = fixture.pipeline.image(for: a)
        slot.load(a)
        try #require(await eventually { fixture.pipeline.metrics.coalescedJoins == 1 })
        slot.load(b)
        // When B finishes first, then A
        try #require(await eventually { fixture.loader.waitingURLs.count == 2 })
        fixture.loader.release(b.url)
        try #require(await eventually { await MainActor.run { slot.phase.response != nil } })
        fixture.loader.release(a.url)
        #expect(FakeImage.isImage(try await keeper.image, of: a.url))
        // Then the slot still shows B's image, never A's
        let shown = try #require(slot.phase.response)
        #expect(FakeImage.isImage(shown.image, of: b.url))
        #expect(slot.request == b)
    }

    @Test func reloadCancelsThePreviousRequest() async throws {
        // Given a slot loading A
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }  // the slot's own tasks must not outlive the test on the gate
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let a = ImageRequest(url: PipelineFixture.url("old.jpg"), maxPixelSize: 32)
        slot.load(a)
        try #require(await eventually { fixture.loader.waitingURLs == [a.url] })
        // When it is bound to B
        slot.load(ImageRequest(url: PipelineFixture.url("new.jpg"), maxPixelSize: 32))
        // Then A's download is cancelled
        #expect(await eventually { fixture.loader.cancelled == [a.url] })
        // (B's load is ended by `close()`: LeakSanitizer would report a task left on the gate, and all it holds,
        // as leaked at exit)
    }

    @Test func cancelOnDisappearStopsTheDownloadAndEmptiesTheSlot() async throws {
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }  // the slot's own tasks must not outlive the test on the gate
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let request = ImageRequest(url: PipelineFixture.url("gone.jpg"), maxPixelSize: 32)
        slot.load(request)
        try #require(await eventually { fixture.loader.waitingURLs == [request.url] })
        slot.cancel()
        guard case .empty = slot.phase else {
            Issue.record("expected .empty, got \(slot.phase)")
            return
        }
        #expect(await eventually { fixture.loader.cancelled == [request.url] })
    }

    @Test func retryAfterFailureLoadsAgain() async throws {
        // Given a slot whose load failed
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }  // the slot's own tasks must not outlive the test on the gate
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let request = ImageRequest(url: PipelineFixture.url("retry.jpg"), maxPixelSize: 32)
        slot.load(request)
        try #require(await eventually { fixture.loader.waitingURLs == [request.url] })
        fixture.loader.release(request.url, with: .failure(PinholeError(.timeout, "stalled")))
        try #require(
            await eventually {
                await MainActor.run { if case .failure = slot.phase { true } else { false } }
            })
        // When it retries and the source answers
        slot.retry()
        #expect(slot.phase.isLoading)
        try #require(await eventually { fixture.loader.waitingURLs == [request.url] })
        fixture.loader.release(request.url)
        // Then it shows the image
        #expect(await eventually { await MainActor.run { slot.phase.response != nil } })
        #expect(fixture.loader.calls.count == 2)
    }

    @Test func cachedImageIsShownWithoutALoadingPhase() async throws {
        // Given an image already in the memory cache
        let fixture = PipelineFixture()
        fixture.loader.releaseAutomatically()
        let request = ImageRequest(url: PipelineFixture.url("cached.jpg"), maxPixelSize: 32)
        _ = try await fixture.pipeline.image(for: request)
        let slot = ImageSlot(pipeline: fixture.pipeline)
        var phases: [String] = []
        slot.onChange = { phases.append("\($0.phase)") }
        // When a slot loads it
        slot.load(request)
        // Then the image is there synchronously, with no loading phase in between
        #expect(slot.phase.response?.source == .memoryCache)
        #expect(phases.count == 1)
        #expect(!phases.contains { $0.hasPrefix("loading") })
    }
}
