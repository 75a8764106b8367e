import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole

/// An observer that subscribes to ``ImageTask/events`` while the task finishes still gets the latest progress
/// before `finished`. `events` once replayed the progress after releasing its lock: a `finish` on another thread in
/// that gap ended the stream first, the replay was dropped, and an ``ImageSlot`` showed its image with `progress`
/// nil (seen once in CI, under ThreadSanitizer, as `theSlotShowsTheDownloadsProgress` failing).
///
/// The gap is a few instructions wide, so this test meets the two threads at every round to hit it. With the old
/// code it failed at once when a 50 µs pause stood in for a preemption in the gap (most observers saw `finished`
/// alone); with the fix it passes with the same pause after the lock. Without a pause the old code fails only
/// now and then: a pass here does not prove the gap closed, the pause run did.
@Suite(.timeLimit(scaledMinutes: 2))
struct ImageTaskEventOrderTests {
    /// Two threads that meet before each round, so that their steps of one round run at about the same moment.
    /// They wait blocked, not spinning: this suite runs beside every other on 2 cores.
    final class Rendezvous: Sendable {
        // Invariant for nonisolated(unsafe): `arrivals` is read and written only while `condition` is locked.
        private let condition = NSCondition()
        nonisolated(unsafe) private var arrivals = 0

        /// Waits until both threads have arrived at `round` (0, 1, 2 …).
        func meet(round: Int) {
            condition.lock()
            defer { condition.unlock() }
            arrivals += 1
            condition.broadcast()
            while arrivals < 2 * (round + 1) { condition.wait() }
        }
    }

    @Test func subscribingWhileTheTaskFinishesStillDeliversTheProgressFirst() async throws {
        // Given 400 tasks (one held download, coalesced), each with progress received and not yet finished
        let rounds = 400
        let fixture = try VersionedPipeline(diskCache: false)
        fixture.loader.gate.close()
        defer { fixture.loader.gate.open() }
        let request = ImageRequest(url: VersionedPipeline.url("order.jpg"))
        let tasks = (0..<rounds).map { _ in fixture.pipeline.imageTask(for: request) }
        defer { for task in tasks { task.cancel() } }
        let progress = ImageTask.Progress(receivedBytes: 10, expectedBytes: 10)
        for task in tasks { task.receive(progress) }
        // When, in each round, one thread subscribes to a task's events while another finishes it
        let rendezvous = Rendezvous()
        let streams = Locked<[AsyncStream<ImageTask.Event>]>([])
        async let subscribed: Void = onOwnThread {
            for (round, task) in tasks.enumerated() {
                rendezvous.meet(round: round)
                let events = task.events
                streams.withLock { $0.append(events) }
            }
        }
        async let finished: Void = onOwnThread {
            for (round, task) in tasks.enumerated() {
                rendezvous.meet(round: round)
                task.finish(.failure(CancellationError()))
            }
        }
        _ = await (subscribed, finished)
        // Then every observer got the progress, then finished, and nothing else
        var wrong: [String] = []
        for events in streams.withLock({ $0 }) {
            var seen: [String] = []
            for await event in events {
                switch event {
                case .progress(let received): seen.append("progress \(received.receivedBytes)")
                case .preview: seen.append("preview")
                case .finished: seen.append("finished")
                }
            }
            if seen != ["progress 10", "finished"] { wrong.append(seen.joined(separator: ", ")) }
        }
        let count = wrong.count
        #expect(count == 0, "\(count) of \(rounds) observers saw: \(Set(wrong))")
    }
}
