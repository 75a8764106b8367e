import Foundation
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// An observer that subscribes to ``ImageTask/events`` while the task finishes still gets the latest progress
/// before `finished`. `events` once replayed the progress after releasing its lock: a `finish` on another thread in
/// that gap ended the stream first, the replay was dropped, and an ``ImageSlot`` showed its image with `progress`
/// nil (seen once in CI, under ThreadSanitizer, as `theSlotShowsTheDownloadsProgress` failing).
///
/// The gap is a few instructions wide, too narrow to hit by racing two threads (an earlier version of this test
/// met two threads 400 times and passed with the bug back). The task's `afterSubscribing` hook runs `finish` at
/// the first moment another thread could: right after `events` leaves its lock.
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageTaskEventOrderTests {
    /// What an observer of `events` saw, in order, until the sequence ended.
    static func seen(_ events: AsyncStream<ImageTask.Event>) async -> [String] {
        var seen: [String] = []
        for await event in events {
            switch event {
            case .progress(let received): seen.append("progress \(received.receivedBytes)")
            case .preview: seen.append("preview")
            case .finished: seen.append("finished")
            }
        }
        return seen
    }

    @Test func aFinishRightAfterSubscribingStillComesAfterTheReplayedProgress() async throws {
        // Given a task with progress received and not finished (its download held)
        let fixture = try VersionedPipeline(diskCache: false)
        fixture.loader.gate.close()
        defer { fixture.loader.gate.open() }
        let task = fixture.pipeline.imageTask(for: ImageRequest(url: VersionedPipeline.url("order.jpg")))
        defer { task.cancel() }
        task.receive(ImageTask.Progress(receivedBytes: 10, expectedBytes: 10))
        // And a finish that comes in as soon as a subscriber leaves the lock
        task.eventState.withLock { state in
            state.afterSubscribing = { task.finish(.failure(CancellationError())) }
        }

        // When an observer subscribes
        let events = task.events
        task.eventState.withLock { $0.afterSubscribing = nil }

        // Then it gets the progress, then finished, and nothing else
        #expect(await Self.seen(events) == ["progress 10", "finished"])
    }

    @Test func anObserverOfAFinishedTaskGetsTheLatestProgressThenFinished() async throws {
        // Given a task that received progress and finished
        let fixture = try VersionedPipeline(diskCache: false)
        fixture.loader.gate.close()
        defer { fixture.loader.gate.open() }
        let task = fixture.pipeline.imageTask(for: ImageRequest(url: VersionedPipeline.url("done.jpg")))
        defer { task.cancel() }
        task.receive(ImageTask.Progress(receivedBytes: 5, expectedBytes: 10))
        task.receive(ImageTask.Progress(receivedBytes: 10, expectedBytes: 10))
        task.finish(.failure(CancellationError()))

        // When an observer subscribes, Then it gets the latest progress, then finished
        #expect(await Self.seen(task.events) == ["progress 10", "finished"])
    }
}
