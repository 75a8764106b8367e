import Foundation
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

#if canImport(Glibc)
    import Glibc
#endif

/// With `keepsPreviousImageWhileLoading`, a refresh that gives a row a new URL keeps the old picture until the new
/// one arrives; a reuse for another row (`prepareForReuse()`) never shows it, and latest-wins still holds.
@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageSlotKeepPreviousTests {
    nonisolated static let old = ImageRequest(url: PipelineFixture.url("row-v1.jpg"), maxPixelSize: 32)
    nonisolated static let new = ImageRequest(url: PipelineFixture.url("row-v2.jpg"), maxPixelSize: 32)
    nonisolated static let other = ImageRequest(url: PipelineFixture.url("other-row.jpg"), maxPixelSize: 32)

    /// A slot showing ``old``'s image.
    func slotShowingTheOldImage(_ fixture: PipelineFixture, keeps: Bool = true) async throws -> ImageSlot {
        try #require(Set([Self.old, Self.new, Self.other].map { FakeImage.colour(for: $0.url) }).count == 3)
        let slot = ImageSlot(pipeline: fixture.pipeline)
        if keeps { slot.keepsPreviousImageWhileLoading = true }  // else the default, which the tests check
        slot.load(Self.old)
        try #require(await eventually { fixture.loader.waitingURLs == [Self.old.url] })
        fixture.loader.release(Self.old.url)
        try #require(await eventually { await MainActor.run { slot.phase.response != nil } })
        return slot
    }

    func shows(_ slot: ImageSlot, _ request: ImageRequest) -> Bool {
        slot.image.map { FakeImage.isImage($0, of: request.url) } ?? false
    }

    @Test func aRefreshKeepsTheOldPictureOverThePlaceholderUntilTheNewOneArrives() async throws {
        // Given a slot that keeps its image, showing the row's old image
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }
        let slot = try await slotShowingTheOldImage(fixture)
        defer { slot.cancel() }
        // When the row is refreshed to a new URL that carries a placeholder, and its load waits
        var refreshed = Self.new
        refreshed.placeholder = ImageSlotPlaceholderTests.hash
        slot.load(refreshed)
        try #require(await eventually { fixture.loader.waitingURLs == [Self.new.url] })
        // Then the phase says loading, but the old picture is still what to draw, over the placeholder
        #expect(slot.phase.isLoading)
        #expect(shows(slot, Self.old))
        #expect(slot.previous.map { FakeImage.isImage($0.image, of: Self.old.url) } == true)
        #expect(slot.placeholder == nil)
        // And when the new image arrives it replaces the old one, which is forgotten
        fixture.loader.release(Self.new.url)
        #expect(await eventually { await MainActor.run { slot.phase.response != nil } })
        #expect(shows(slot, Self.new))
        #expect(slot.previous == nil)
    }

    @Test func byDefaultARefreshShowsThePlaceholder() async throws {
        // Given a slot with the default settings, showing the old image
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }
        let slot = try await slotShowingTheOldImage(fixture, keeps: false)
        defer { slot.cancel() }
        // When the row is refreshed to a new URL
        var refreshed = Self.new
        refreshed.placeholder = ImageSlotPlaceholderTests.hash
        slot.load(refreshed)
        // Then nothing of the old image is kept: the placeholder is what to draw
        #expect(slot.image == nil)
        #expect(slot.previous == nil)
        #expect(slot.placeholder == ImageSlotPlaceholderTests.hash.decoded())
    }

    @Test func aReuseForAnotherRowNeverShowsTheOldRowsPicture() async throws {
        // Given a keeping slot showing one row's image
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }
        let slot = try await slotShowingTheOldImage(fixture)
        defer { slot.cancel() }
        // When its view is reused for another row
        slot.prepareForReuse()
        #expect(slot.image == nil)
        var otherRow = Self.other
        otherRow.placeholder = ImageSlotPlaceholderTests.hash
        slot.load(otherRow)
        // Then it shows that row's placeholder, never the old row's picture, until that row's image arrives
        #expect(slot.image == nil)
        #expect(slot.previous == nil)
        #expect(slot.placeholder == ImageSlotPlaceholderTests.hash.decoded())
        try #require(await eventually { fixture.loader.waitingURLs == [Self.other.url] })
        fixture.loader.release(Self.other.url)
        #expect(await eventually { await MainActor.run { slot.phase.response != nil } })
        #expect(shows(slot, Self.other))
    }

    @Test func aLateResultOfAnEarlierRefreshNeverLandsAndTheOldPictureStays() async throws {
        // Given a keeping slot showing the old image, refreshed to the new URL, whose load waits
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }
        let slot = try await slotShowingTheOldImage(fixture)
        defer { slot.cancel() }
        slot.load(Self.new)
        try #require(await eventually { fixture.loader.waitingURLs == [Self.new.url] })
        let taskNew = try #require(slot.task)
        let imageTaskNew = try #require(slot.imageTask)
        // When the new image arrives and its task has its result, but the main actor has not applied it yet (a
        // bounded wait that never suspends holds the main actor), and the row is refreshed again meanwhile
        fixture.loader.release(Self.new.url)
        let deadline = ContinuousClock.now + LoadFactor.scaled(.seconds(10))
        while imageTaskNew.eventState.withLock({ $0.finished == nil }) && ContinuousClock.now < deadline { usleep(200) }
        try #require(imageTaskNew.eventState.withLock { $0.finished } != nil, "the first refresh never finished")
        slot.load(Self.other)
        await taskNew.value
        // Then the first refresh's result was dropped: the slot waits for the latest, still drawing the old picture
        #expect(slot.staleResultsDropped == 1)
        #expect(slot.phase.isLoading)
        #expect(shows(slot, Self.old))
        // And the latest request's image is what lands
        try #require(await eventually { fixture.loader.waitingURLs == [Self.other.url] })
        fixture.loader.release(Self.other.url)
        #expect(await eventually { await MainActor.run { slot.phase.response != nil } })
        #expect(shows(slot, Self.other))
    }

    @Test func aCancelledRefreshKeepsTheOldPictureAndAFailedOneReportsOverIt() async throws {
        // Given a keeping slot showing the old image, refreshed to the new URL, whose load waits
        let fixture = PipelineFixture()
        defer { fixture.loader.close() }
        let slot = try await slotShowingTheOldImage(fixture)
        defer { slot.cancel() }
        slot.load(Self.new)
        try #require(await eventually { fixture.loader.waitingURLs == [Self.new.url] })
        // When the view disappears
        slot.cancel()
        // Then the new load is cancelled, and the row still draws its old picture
        #expect(await eventually { fixture.loader.cancelled == [Self.new.url] })
        guard case .empty = slot.phase else {
            Issue.record("\(slot.phase)")
            return
        }
        #expect(shows(slot, Self.old))
        // And when it reappears and the new load fails, the failure is reported with the old picture kept
        slot.appear()
        try #require(await eventually { fixture.loader.waitingURLs == [Self.new.url] })
        fixture.loader.release(Self.new.url, with: .failure(PinholeError(.httpStatus, "HTTP 503", httpStatusCode: 503)))
        #expect(
            await eventually { await MainActor.run { if case .failure = slot.phase { true } else { false } } })
        #expect(shows(slot, Self.old))
    }
}
