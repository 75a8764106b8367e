import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// A slot whose view went away without ``ImageSlot/cancel()`` (a row released by its list) must not keep its load
/// running for nobody: issue 25 suspected that the slot's task held the slot across its wait for the result.
@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageSlotReleaseTests {
    @Test func aSlotDroppedWithoutCancelIsFreedAndItsLoadIsCancelled() async throws {
        // Given a slot whose load waits at the loader
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }
        let url = PipelineFixture.url("dropped-row.jpg")
        var slot: ImageSlot? = ImageSlot(pipeline: fixture.pipeline)
        slot?.load(ImageRequest(url: url, maxPixelSize: 32))
        try #require(await eventually { fixture.loader.waitingURLs == [url] })
        weak let released = slot

        // When the last reference to the slot goes, and nobody calls cancel()
        slot = nil

        // Then the slot is freed, and its load is cancelled (the loader sees the cancellation)
        #expect(await eventually { @MainActor in released == nil }, "the slot's own task keeps it alive")
        #expect(await eventually { fixture.loader.cancelled == [url] }, "the dropped slot's load goes on")
    }

}
