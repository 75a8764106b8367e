import Foundation
import Pinhole
import PinholeShared
import PinholeTestSupport
import Testing

/// ``AnimationWriteBudget``: writers of animations hold at most its capacity in frame pixels together, waiting in
/// turn, and a cancelled waiter leaves at once without blocking the ones behind it.
@Suite(.timeLimit(scaledMinutes: 1))
struct AnimationWriteBudgetTests {
    /// A body that runs until ``open()``; counts how many bodies run at once.
    final class Hold: Sendable {
        private let opened = Locked(false)
        let running = Locked(0)
        let peak = Locked(0)

        func open() { opened.withLock { $0 = true } }

        func body() async throws -> Int {
            let now = running.withLock {
                $0 += 1
                return $0
            }
            peak.withLock { $0 = max($0, now) }
            defer { running.withLock { $0 -= 1 } }
            while !opened.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(2)) }
            return now
        }
    }

    @Test func writersThatTogetherPassTheCapacityRunOneAfterTheOther() async throws {
        // Given a budget of 100 pixels and three writers of 60 each, held until opened
        let budget = AnimationWriteBudget(capacity: 100)
        let hold = Hold()
        let writers = (0..<3).map { _ in
            Task { try await budget.withReservation(pixels: 60) { try await hold.body() } }
        }
        // When one runs
        #expect(await eventually { hold.running.withLock { $0 } == 1 })
        // Then the others wait with 60 pixels reserved, and once opened all finish, never two at once
        #expect(budget.reservedPixels == 60)
        hold.open()
        for writer in writers { _ = try await writer.value }
        #expect(hold.peak.withLock { $0 } == 1)
        #expect(budget.reservedPixels == 0)
    }

    @Test func smallWritersRunTogetherAndOneLargerThanTheCapacityReservesAllOfIt() async throws {
        // Given a budget of 100 pixels
        let budget = AnimationWriteBudget(capacity: 100)
        let hold = Hold()
        // When three writers of 30 pixels start, Then all three run at once (90 reserved)
        let small = (0..<3).map { _ in Task { try await budget.withReservation(pixels: 30) { try await hold.body() } } }
        #expect(await eventually { hold.running.withLock { $0 } == 3 })
        #expect(budget.reservedPixels == 90)
        // And one of 1,000 waits for them, then runs alone with the whole capacity
        let large = Task { try await budget.withReservation(pixels: 1_000) { budget.reservedPixels } }
        hold.open()
        for writer in small { _ = try await writer.value }
        #expect(try await large.value == 100)
    }

    @Test func aCancelledWaiterLeavesAtOnceAndTheNextStillRuns() async throws {
        // Given a writer holding 80 of 100 pixels, and two waiting for 50 each
        let budget = AnimationWriteBudget(capacity: 100)
        let hold = Hold()
        let first = Task { try await budget.withReservation(pixels: 80) { try await hold.body() } }
        #expect(await eventually { hold.running.withLock { $0 } == 1 })
        let cancelled = Task { try await budget.withReservation(pixels: 50) { 1 } }
        let next = Task { try await budget.withReservation(pixels: 50) { 2 } }
        try await Task.sleep(for: .milliseconds(20))
        // When the first waiter is cancelled
        cancelled.cancel()
        // Then it throws CancellationError without waiting for the holder, and the next runs once the holder ends
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(hold.running.withLock { $0 } == 1)
        hold.open()
        _ = try await first.value
        #expect(try await next.value == 2)
        #expect(budget.reservedPixels == 0)
    }
}
