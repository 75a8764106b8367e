import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole

#if canImport(Glibc)
import Glibc
#endif

/// A row that scrolls away must cost the main actor next to nothing: ``ImageSlot`` hands the pipeline's
/// cancellation work (leaving the job, cancelling the download) to a task of its own instead of running it inside
/// `cancel()` / `load(_:)`.
@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageSlotCancellationTests {
    /// A loader whose loads wait until cancelled, recording the thread its cancellation handler ran on.
    final class WaitingLoader: DataLoading {
        private let state = Locked<(started: Int, cancelThreads: [pthread_t])>((0, []))

        var started: Int { state.withLock { $0.started } }
        /// The thread each cancellation handler ran on, in order.
        var cancelThreads: [pthread_t] { state.withLock { $0.cancelThreads } }

        func loadData(for request: DataRequest) async throws -> DataResponse {
            state.withLock { $0.started += 1 }
            try await withTaskCancellationHandler {
                while !Task.isCancelled { try await Task.sleep(for: .milliseconds(5)) }
            } onCancel: {
                state.withLock { $0.cancelThreads.append(pthread_self()) }
            }
            throw CancellationError()
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

        // When the row disappears (cancel) or is bound to another request (load), and the main actor stays busy
        // until the download's cancellation handler has run (bounded; deliberately blocking, so that the handler
        // can only run on this thread if the slot's call ran it)
        let mainActorThread = pthread_self()
        if action == "cancel" {
            slot.cancel()
        } else {
            slot.load(ImageRequest(url: PipelineFixture.url("next.jpg"), maxPixelSize: 32))
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while loader.cancelThreads.isEmpty && ContinuousClock.now < deadline { usleep(1_000) }

        // Then the download was cancelled on another thread, not inside the slot's call on the main actor
        let cancelThread = try #require(loader.cancelThreads.first, "the download was never cancelled")
        #expect(pthread_equal(cancelThread, mainActorThread) == 0)
        slot.cancel()
        #expect(await eventually { loader.cancelThreads.count == loader.started })
    }
}
