import Foundation
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

#if canImport(Glibc)
    import Glibc
#endif

/// A row that scrolls away must cost the main actor next to nothing: ``ImageSlot`` hands the pipeline's
/// cancellation work (leaving the job, cancelling the download) to a task of its own, one for all the slots
/// cancelled in one main-actor job (``CancellationBatch``), instead of running it inside `cancel()` / `load(_:)`.
@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageSlotCancellationTests {
    /// The kit's ``GatedDataLoader`` (loads wait until cancelled), recording the thread each cancellation
    /// handler ran on.
    final class WaitingLoader: DataLoading {
        private let gated = GatedDataLoader()
        private let threads = Locked<[pthread_t]>([])

        var started: Int { gated.calls.count }
        /// The thread each cancellation handler ran on, in order.
        var cancelThreads: [pthread_t] { threads.withLock { $0 } }

        func loadData(for request: DataRequest) async throws -> DataResponse {
            try await withTaskCancellationHandler {
                try await gated.loadData(for: request)
            } onCancel: {
                threads.withLock { $0.append(pthread_self()) }
            }
        }
    }

    @Test(arguments: ["cancel", "load"])
    func theDownloadIsCancelledOutsideTheSlotsCall(by action: String) async throws {
        // Given a slot whose download is under way
        let loader = WaitingLoader()
        let pipeline = ImagePipeline(configuration: .init(decoder: FakeDecoder(), dataLoader: loader))
        let slot = ImageSlot(pipeline: pipeline)
        slot.load(ImageRequest(url: PipelineFixture.url("away.jpg"), maxPixelSize: 32))
        #expect(await eventually { loader.started == 1 })

        // When the row disappears (cancel) or is bound to another request (load)
        if action == "cancel" {
            slot.cancel()
        } else {
            slot.load(ImageRequest(url: PipelineFixture.url("next.jpg"), maxPixelSize: 32))
        }

        // Then the download's cancellation handler did not run inside the slot's call (the slot's cancels run after
        // the caller's main-actor job, on a task of their own), and it runs soon after, on another thread
        #expect(loader.cancelThreads.isEmpty, "the download was cancelled inside the slot's call")
        let mainActorThread = pthread_self()
        try #require(await eventually { !loader.cancelThreads.isEmpty }, "the download was never cancelled")
        #expect(loader.cancelThreads.allSatisfy { pthread_equal($0, mainActorThread) == 0 })
        slot.cancel()
        #expect(await eventually { loader.cancelThreads.count == loader.started })
    }

    @Test func slotsCancelledInOneTurnShareTheTasksThatCancelThem() async throws {
        // Given 12 slots whose downloads are under way (a screen of rows)
        let loader = WaitingLoader()
        var configuration = ImagePipeline.Configuration(decoder: FakeDecoder(), dataLoader: loader)
        configuration.networkConcurrencyLimit = 12
        configuration.networkConcurrencyLimitPerHost = nil  // every row's image is on one host
        let pipeline = ImagePipeline(configuration: configuration)
        let slots = (0..<12).map { _ in ImageSlot(pipeline: pipeline) }
        for (index, slot) in slots.enumerated() {
            slot.load(ImageRequest(url: PipelineFixture.url("row-\(index).jpg"), maxPixelSize: 32))
        }
        try #require(await eventually { loader.started == 12 })

        // When all of them are bound to new requests in one main-actor turn (a refresh)
        let before = CancellationBatch.batchesStarted
        for (index, slot) in slots.enumerated() {
            slot.load(ImageRequest(url: PipelineFixture.url("row-\(index)-v2.jpg"), maxPixelSize: 32))
        }
        let batches = CancellationBatch.batchesStarted - before

        // Then every old download is cancelled, by one task (one per slot would wake 12 threads)
        #expect(await eventually { loader.cancelThreads.count == 12 })
        // (0 when they all joined a batch begun earlier whose job had not run yet)
        #expect(batches <= 1, "\(batches) tasks for 12 cancels")
        for slot in slots { slot.cancel() }
        #expect(await eventually { loader.cancelThreads.count == loader.started })
    }
}
