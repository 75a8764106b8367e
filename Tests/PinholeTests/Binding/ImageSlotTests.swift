import Foundation
import Testing

@testable import Pinhole

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ImageSlotTests {
    @Test func showsTheImageOfTheCurrentRequest() async throws {
        // Given a slot bound to a request
        let fixture = PipelineFixture()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let url = PipelineFixture.url("row-1.jpg")
        slot.load(ImageRequest(url: url, maxPixelSize: 40))
        #expect(slot.phase.isLoading)
        // When the load finishes
        #expect(await eventually { fixture.loader.waitingURLs == [url] })
        fixture.loader.release(url)
        // Then the slot shows that image
        #expect(await eventually { await MainActor.run { slot.phase.response != nil } })
        #expect(slot.phase.response?.image.width == 40)
    }

    @Test func lateResultForAnOlderRequestIsDropped() async throws {
        // Given a slot that moved from request A (slow) to request B; A is held by a second caller so it
        // completes after all
        let fixture = PipelineFixture()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let a = ImageRequest(url: PipelineFixture.url("a.png"), maxPixelSize: 32)
        let b = ImageRequest(url: PipelineFixture.url("bb.png"), maxPixelSize: 32)
        let keeper = Task { try await fixture.pipeline.image(for: a) }
        slot.load(a)
        #expect(await eventually { fixture.pipeline.metrics.coalescedJoins == 1 })
        slot.load(b)
        // When B finishes first, then A
        #expect(await eventually { fixture.loader.waitingURLs.count == 2 })
        fixture.loader.release(b.url)
        #expect(await eventually { await MainActor.run { slot.phase.response != nil } })
        fixture.loader.release(a.url)
        _ = try await keeper.value
        // Then the slot still shows B's image (its marker is B's URL length), never A's
        let shown = try #require(slot.phase.response)
        #expect(shown.image.pixel(x: 0, y: 0).r == UInt8(b.url.absoluteString.count))
        #expect(slot.request == b)
    }

    @Test func reloadCancelsThePreviousRequest() async throws {
        // Given a slot loading A
        let fixture = PipelineFixture()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let a = ImageRequest(url: PipelineFixture.url("old.jpg"), maxPixelSize: 32)
        slot.load(a)
        #expect(await eventually { fixture.loader.waitingURLs == [a.url] })
        // When it is bound to B
        slot.load(ImageRequest(url: PipelineFixture.url("new.jpg"), maxPixelSize: 32))
        // Then A's download is cancelled
        #expect(await eventually { fixture.loader.cancelled == [a.url] })

        // Cleanup: B's load is answered, so no task is left waiting on the gate when the test ends (LeakSanitizer
        // reports such tasks, and everything they hold, as leaks at exit)
        fixture.loader.releaseAutomatically()
        #expect(await eventually { await MainActor.run { slot.phase.response != nil } })
    }

    @Test func cancelOnDisappearStopsTheDownloadAndEmptiesTheSlot() async throws {
        let fixture = PipelineFixture()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let request = ImageRequest(url: PipelineFixture.url("gone.jpg"), maxPixelSize: 32)
        slot.load(request)
        #expect(await eventually { fixture.loader.waitingURLs == [request.url] })
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
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let request = ImageRequest(url: PipelineFixture.url("retry.jpg"), maxPixelSize: 32)
        slot.load(request)
        #expect(await eventually { fixture.loader.waitingURLs == [request.url] })
        fixture.loader.release(request.url, with: .failure(PinholeError(.timeout, "stalled")))
        #expect(await eventually {
            await MainActor.run { if case .failure = slot.phase { true } else { false } }
        })
        // When it retries and the source answers
        slot.retry()
        #expect(slot.phase.isLoading)
        #expect(await eventually { fixture.loader.waitingURLs == [request.url] })
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
