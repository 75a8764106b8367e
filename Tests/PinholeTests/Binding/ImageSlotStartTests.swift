import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole

/// ``ImageSlot/load(_:)`` starts the pipeline's work in a main-actor job after the caller's: starting wakes pool
/// threads, which would take the main actor's core while the caller (a frame binding a screen of rows) still runs.
@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageSlotStartTests {
    typealias Fixture = VersionedPipeline

    @Test func aLoadStartsAfterTheCallersJobNotInsideIt() async throws {
        // Given a slot over a pipeline whose downloads are held
        let fixture = try Fixture(diskCache: false)
        fixture.loader.gate.close()
        defer { fixture.loader.gate.open() }
        let slot = ImageSlot(pipeline: fixture.pipeline)

        // When a request is bound, Then within the same job the slot shows loading but has started nothing
        slot.load(ImageRequest(url: Fixture.url("later.jpg"), maxPixelSize: 30))
        #expect(slot.phase.isLoading)
        #expect(slot.imageTask == nil)
        #expect(fixture.pipeline.activeImageJobCount == 0)

        // And once the job is over, the load starts and its image arrives
        try #require(await eventually { fixture.loader.gate.waitingCount == 1 })
        #expect(slot.imageTask != nil)
        fixture.loader.gate.open()
        #expect(Fixture.payload(try await slot.response).hasSuffix("|v1"))
    }

    @Test func aRequestReplacedInTheSameJobIsNeverStarted() async throws {
        // Given a slot over a pipeline whose downloads are held
        let fixture = try Fixture(diskCache: false)
        fixture.loader.gate.close()
        defer { fixture.loader.gate.open() }
        let slot = ImageSlot(pipeline: fixture.pipeline)

        // When A is bound and replaced by B before the job ends (a refresh right after a scroll)
        let a = ImageRequest(url: Fixture.url("replaced.jpg"), maxPixelSize: 30)
        let b = ImageRequest(url: Fixture.url("kept.jpg"), maxPixelSize: 30)
        slot.load(a)
        slot.load(b)

        // Then only B is downloaded
        try #require(await eventually { fixture.loader.gate.waitingCount == 1 })
        fixture.loader.gate.open()
        #expect(Fixture.payload(try await slot.response).contains("kept.jpg"))
        #expect(fixture.loader.loads(of: a.url) == 0)
        #expect(fixture.loader.loads(of: b.url) == 1)
    }

    @Test(arguments: [false, true])
    func aRowHiddenBeforeItsLoadStartedStartsAtTheLoweredPriority(appearsAgain: Bool) async throws {
        // Given a slot that lowers its priority on disappear, and a high-priority request just bound
        let fixture = try Fixture(diskCache: false)
        fixture.loader.gate.close()
        defer { fixture.loader.gate.open() }
        let slot = ImageSlot(pipeline: fixture.pipeline)
        slot.disappearBehavior = .lowerPriority(to: .veryLow)
        slot.load(ImageRequest(url: Fixture.url("hidden.jpg"), priority: .high))

        // When the row disappears (and maybe appears again) in the same job, before the load started
        slot.disappear()
        if appearsAgain { slot.appear() }

        // Then the load starts at the priority the row has now
        try #require(await eventually { fixture.loader.gate.waitingCount == 1 })
        #expect(slot.imageTask?.priority == (appearsAgain ? .high : .veryLow))
    }
}
