import Foundation
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// Awaiting a slot's result, observing its phases with several observers, progress, and lowering the priority on
/// disappear instead of cancelling.
@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageSlotObservingTests {
    typealias Fixture = VersionedPipeline

    static func name(_ phase: ImageSlot.Phase) -> String {
        switch phase {
        case .empty: "empty"
        case .loading: "loading"
        case .success: "success"
        case .failure: "failure"
        }
    }

    @Test func awaitingTheSlotGivesItsImage() async throws {
        let fixture = try Fixture(diskCache: false)
        let slot = ImageSlot(pipeline: fixture.pipeline)
        slot.load(ImageRequest(url: Fixture.url("a.jpg"), maxPixelSize: 30))
        let response = try await slot.response
        #expect(Fixture.payload(response).hasSuffix("|v1") && response.image.width == 30)
        // An empty slot has no result to wait for
        slot.load(nil)
        await #expect(throws: CancellationError.self) { _ = try await slot.response }
    }

    @Test func severalObserversEachSeeEveryPhase() async throws {
        // Given a slot whose load is held, and two observers of its phases
        let fixture = try Fixture(diskCache: false)
        fixture.loader.gate.close()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        slot.load(ImageRequest(url: Fixture.url("o.jpg")))
        let seen = Locked<[Int: [String]]>([:])
        func collect(_ observer: Int) -> Task<Void, Never> {
            let phases = slot.phases
            return Task {
                for await phase in phases {
                    seen.withLock { $0[observer, default: []].append(Self.name(phase)) }
                    if phase.response != nil { break }
                }
            }
        }
        let observers = [collect(1), collect(2)]
        defer { for observer in observers { observer.cancel() } }
        try #require(await eventually { fixture.loader.gate.waitingCount == 1 })
        // When the load finishes
        fixture.loader.gate.open()
        // Then both saw loading, then success (waits are bounded: a missed phase fails, never hangs)
        #expect(await eventually { seen.withLock { $0[1]?.last == "success" && $0[2]?.last == "success" } })
        #expect(seen.withLock { $0[1] } == ["loading", "success"])
        #expect(seen.withLock { $0[2] } == ["loading", "success"])
    }

    @Test func theSlotShowsTheDownloadsProgress() async throws {
        let loader = RecordingLoader()
        let pipeline = ImagePipeline(configuration: .init(decoder: PayloadDecoder(), dataLoader: loader))
        let slot = ImageSlot(pipeline: pipeline)
        slot.load(ImageRequest(url: Fixture.url("progress.jpg")))
        _ = try await slot.response
        let progress = try #require(slot.progress)
        #expect(progress.receivedBytes == progress.expectedBytes && progress.receivedBytes > 0)
    }

    @Test func disappearingLowersThePriorityWhenAskedAndTheLoadGoesOn() async throws {
        // Given a slot that lowers its priority on disappear, with its load held
        let fixture = try Fixture(diskCache: false)
        fixture.loader.gate.close()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        slot.disappearBehavior = .lowerPriority(to: .veryLow)
        let request = ImageRequest(url: Fixture.url("scroll.jpg"), priority: .high)
        slot.load(request)
        try #require(await eventually { fixture.loader.gate.waitingCount == 1 })
        // When the row disappears, Then the load keeps going at the lower priority
        slot.disappear()
        #expect(slot.imageTask?.priority == .veryLow)
        #expect(slot.phase.isLoading && fixture.pipeline.activeImageJobCount == 1)
        // When it appears again, Then the request's priority is back, and the image arrives
        slot.appear()
        #expect(slot.imageTask?.priority == .high)
        fixture.loader.gate.open()
        #expect(Fixture.payload(try await slot.response).hasSuffix("|v1"))
        #expect(fixture.loader.loads(of: request.url) == 1)
    }

    @Test func disappearingCancelsByDefault() async throws {
        let fixture = try Fixture(diskCache: false)
        fixture.loader.gate.close()
        let slot = ImageSlot(pipeline: fixture.pipeline)
        let request = ImageRequest(url: Fixture.url("gone.jpg"))
        slot.load(request)
        try #require(await eventually { fixture.loader.gate.waitingCount == 1 })
        slot.disappear()
        // The load is cancelled (its only caller left) and the slot is empty
        #expect(Self.name(slot.phase) == "empty")
        #expect(await eventually { fixture.loader.gate.waitingCount == 0 && fixture.pipeline.activeImageJobCount == 0 })
        // When it appears again, Then it loads its request anew
        fixture.loader.gate.open()
        slot.appear()
        #expect(Fixture.payload(try await slot.response).hasSuffix("|v2"))
    }
}
