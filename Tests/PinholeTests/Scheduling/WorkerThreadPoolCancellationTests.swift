import Dispatch
import PinholeTestSupport
import Synchronization
import Testing

@testable import Pinhole

/// A caller waiting for a ``WorkerThreadPool`` thread leaves as soon as it is cancelled, not when a thread comes
/// free, and its closure never runs.
@Suite(.timeLimit(scaledMinutes: 1))
struct WorkerThreadPoolCancellationTests {
    /// Counts what happened to callers and closures.
    final class Tally: Sendable {
        let ran = Atomic<Int>(0)
        let succeeded = Atomic<Int>(0)
        let cancelled = Atomic<Int>(0)
        let answered = Atomic<Int>(0)
        let occupied = Atomic<Bool>(false)
    }

    /// Occupies the pool's only thread until `release` is signalled (at most 30 s, so a failing test never hangs).
    private static func occupy(_ pool: WorkerThreadPool, until release: DispatchSemaphore, tally: Tally) -> Task<
        Void, Never
    > {
        Task {
            _ = try? await pool.run {
                tally.occupied.store(true, ordering: .releasing)
                _ = release.wait(timeout: .now() + 30)
            }
        }
    }

    @Test func aQueuedCallerLeavesAtOnceWhenCancelledWhileEveryThreadIsBusy() async throws {
        // Given a one-thread pool whose thread is busy
        let pool = WorkerThreadPool(threadCount: 1, name: "pinhole-cancel")
        let release = DispatchSemaphore(value: 0)
        let tally = Tally()
        let occupier = Self.occupy(pool, until: release, tally: tally)
        defer {
            release.signal()
            occupier.cancel()
        }
        try #require(await eventually { tally.occupied.load(ordering: .acquiring) })
        // And a caller queued behind it
        let waiter = Task {
            do {
                _ = try await pool.run { tally.ran.add(1, ordering: .relaxed) }
                tally.succeeded.add(1, ordering: .relaxed)
            } catch is CancellationError {
                tally.cancelled.add(1, ordering: .relaxed)
            } catch {}
            tally.answered.add(1, ordering: .releasing)
        }
        try #require(await eventually { pool.queuedCount == 1 })
        // When the caller is cancelled while the thread is still busy
        waiter.cancel()
        // Then it is answered with CancellationError while the thread is still busy
        #expect(await eventually(timeout: .seconds(10)) { tally.answered.load(ordering: .acquiring) == 1 })
        #expect(tally.cancelled.load(ordering: .relaxed) == 1)
        // And once the thread is free, the cancelled closure never runs
        release.signal()
        let probe = try await pool.run { 7 }
        #expect(probe == 7)
        #expect(tally.ran.load(ordering: .relaxed) == 0)
    }

    @Test func cancellationsAtRandomInstantsAnswerEveryCallerOnceAndRunOnlyTheirClosures() async throws {
        // Given 400 callers of a two-thread pool, each cancelled after a random number of yields
        let pool = WorkerThreadPool(threadCount: 2, name: "pinhole-cancel2")
        let tally = Tally()
        var generator = SplitMix(seed: 10)
        let delays = (0..<400).map { _ in Int(generator.next() % 6) }
        await withTaskGroup(of: Void.self) { group in
            for delay in delays {
                let caller = Task {
                    do {
                        _ = try await pool.run { tally.ran.add(1, ordering: .relaxed) }
                        tally.succeeded.add(1, ordering: .relaxed)
                    } catch {
                        tally.cancelled.add(1, ordering: .relaxed)
                    }
                    tally.answered.add(1, ordering: .relaxed)
                }
                group.addTask {
                    for _ in 0..<delay { await Task.yield() }
                    caller.cancel()
                    _ = await caller.value
                }
            }
        }
        // Then every caller was answered exactly once, and a closure ran exactly for each caller that got a result
        _ = try await pool.run { 0 }  // everything queued before has been taken
        #expect(tally.answered.load(ordering: .relaxed) == 400)
        #expect(tally.succeeded.load(ordering: .relaxed) + tally.cancelled.load(ordering: .relaxed) == 400)
        #expect(tally.ran.load(ordering: .relaxed) == tally.succeeded.load(ordering: .relaxed))
    }
}
