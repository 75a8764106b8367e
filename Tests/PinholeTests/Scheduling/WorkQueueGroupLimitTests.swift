import PinholeTestSupport
import Testing

@testable import Pinhole

/// The per-group (per-host) limit of the work queue: one group's items never hold every slot, and a full group's
/// waiters are passed over, not served out of turn.
@Suite(.timeLimit(scaledMinutes: 1))
struct WorkQueueGroupLimitTests {
    @Test func aFullGroupWaitsWhileAnotherGroupRunsInTheFreeSlot() {
        // Given 3 slots, at most 2 for one host, and host a running 2
        var machine = WorkQueueStateMachine(limit: 3, groupLimit: 2)
        let firstOfA = machine.acquire(1, priority: .normal, group: "a")
        #expect(firstOfA == .run)
        let secondOfA = machine.acquire(2, priority: .normal, group: "a")
        #expect(secondOfA == .run)
        // When a third for host a comes, then one for host b
        let thirdOfA = machine.acquire(3, priority: .veryHigh, group: "a")
        let firstOfB = machine.acquire(4, priority: .veryLow, group: "b")
        // Then a's waits although a slot is free, and b's runs at once in that slot
        #expect(thirdOfA == .wait)
        #expect(firstOfB == .run)
        #expect(machine.running == 3)
        #expect(machine.runningCount(group: "a") == 2)
        // And an item without a group waits only for a slot
        let ungrouped = machine.acquire(5, priority: .low)
        #expect(ungrouped == .wait)
    }

    @Test func aReleasedSlotGoesToTheFirstWaiterWhoseGroupHasRoom() {
        // Given 2 slots, at most 1 per host, a and b running, and waiters a (very high) then c (low)
        var machine = WorkQueueStateMachine(limit: 2, groupLimit: 1)
        _ = machine.acquire(1, priority: .normal, group: "a")
        _ = machine.acquire(2, priority: .normal, group: "b")
        _ = machine.acquire(3, priority: .veryHigh, group: "a")
        _ = machine.acquire(4, priority: .low, group: "c")
        // When b's item ends
        // Then c's waiter runs: a's, first in priority, has no room while a's first item runs
        let afterB = machine.release(group: "b")
        #expect(afterB == 4)
        #expect(machine.serviceOrder == [3])
        // And when a's first item ends, its waiter runs in that slot
        let afterA = machine.release(group: "a")
        #expect(afterA == 3)
        #expect(machine.runningCount(group: "a") == 1)
        let afterC = machine.release(group: "c")
        #expect(afterC == nil)
        let afterLastA = machine.release(group: "a")
        #expect(afterLastA == nil)
        #expect(machine.running == 0)
    }

    @Test func aCancelledWaiterOfAFullGroupLeavesNoTrace() {
        var machine = WorkQueueStateMachine(limit: 2, groupLimit: 1)
        _ = machine.acquire(1, priority: .normal, group: "a")
        _ = machine.acquire(2, priority: .normal, group: "a")
        let wasWaiting = machine.cancel(2)
        #expect(wasWaiting)
        #expect(machine.waitingCount == 0)
        let afterOnlyA = machine.release(group: "a")
        #expect(afterOnlyA == nil)
        #expect(machine.runningCount(group: "a") == 0)
        let nextOfA = machine.acquire(3, priority: .normal, group: "a")
        #expect(nextOfA == .run)
    }
}
