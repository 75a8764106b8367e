import PinholeTestSupport
import Testing

@testable import Pinhole

@Suite(.timeLimit(scaledMinutes: 1))
struct WorkQueueStateMachineTests {
    @Test func runsUpToTheLimitThenQueues() {
        // Given a queue with a limit of 2
        var machine = WorkQueueStateMachine(limit: 2)
        // When three callers ask
        let actions = [1, 2, 3].map { machine.acquire(UInt64($0), priority: .normal) }
        // Then two run and the third waits
        #expect(actions == [.run, .run, .wait])
        #expect(machine.running == 2)
        #expect(machine.waitingCount == 1)
    }

    @Test func servesHighestPriorityFirstAndFIFOWithinAPriority() {
        // Given a busy queue and waiters of mixed priorities
        var machine = WorkQueueStateMachine(limit: 1)
        _ = machine.acquire(0, priority: .normal)
        _ = machine.acquire(1, priority: .low)
        _ = machine.acquire(2, priority: .high)
        _ = machine.acquire(3, priority: .low)
        _ = machine.acquire(4, priority: .high)
        // When slots free up one by one
        let order = (0..<4).compactMap { _ in machine.release() }
        // Then high priority goes first, in arrival order within a level
        #expect(order == [2, 4, 1, 3])
    }

    @Test func raisedPriorityJumpsTheQueue() {
        // Given three waiters at normal priority
        var machine = WorkQueueStateMachine(limit: 1)
        _ = machine.acquire(0, priority: .normal)
        for id: UInt64 in [1, 2, 3] { _ = machine.acquire(id, priority: .normal) }
        // When the last one is raised to high
        machine.setPriority(3, to: .high)
        // Then it is served first
        #expect(machine.serviceOrder == [3, 1, 2])
        #expect(machine.release() == 3)
    }

    @Test func loweredPriorityMovesBehind() {
        var machine = WorkQueueStateMachine(limit: 1)
        _ = machine.acquire(0, priority: .normal)
        for id: UInt64 in [1, 2] { _ = machine.acquire(id, priority: .normal) }
        machine.setPriority(1, to: .veryLow)
        #expect(machine.serviceOrder == [2, 1])
    }

    @Test func cancelledWaiterIsRemovedAndNeverServed() {
        // Given two waiters
        var machine = WorkQueueStateMachine(limit: 1)
        _ = machine.acquire(0, priority: .normal)
        _ = machine.acquire(1, priority: .normal)
        _ = machine.acquire(2, priority: .normal)
        // When one is cancelled
        let first = machine.cancel(1)
        let again = machine.cancel(1)
        #expect(first)
        #expect(!again)
        // Then only the other is served, and the slot frees afterwards
        #expect(machine.release() == 2)
        #expect(machine.release() == nil)
        #expect(machine.running == 0)
    }

    @Test func priorityChangeOfARunningItemHasNoEffect() {
        var machine = WorkQueueStateMachine(limit: 1)
        _ = machine.acquire(0, priority: .normal)
        machine.setPriority(0, to: .veryHigh)
        #expect(machine.waitingCount == 0)
        #expect(machine.release() == nil)
    }
}
