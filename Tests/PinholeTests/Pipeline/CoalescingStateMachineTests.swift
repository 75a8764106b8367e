import PinholeTestSupport
import Testing

@testable import Pinhole

@Suite(.timeLimit(scaledMinutes: 1))
struct CoalescingStateMachineTests {
    typealias Machine = CoalescingStateMachine<String, String>

    @Test func firstSubscriberStartsAJobAndOthersJoinIt() {
        // Given an empty machine
        var machine = Machine()
        // When three subscribers ask for the same key
        let first = machine.subscribe("a", subscriber: 1, priority: .normal, payload: "s1")
        let second = machine.subscribe("a", subscriber: 2, priority: .normal, payload: "s2")
        let third = machine.subscribe("a", subscriber: 3, priority: .low, payload: "s3")
        // Then one job starts and the others join it without changing its priority
        #expect(first == .start(jobID: 1, priority: .normal))
        #expect(second == .join(jobID: 1, newPriority: nil))
        #expect(third == .join(jobID: 1, newPriority: nil))
        #expect(machine.jobs.count == 1)
    }

    @Test func joiningOnlyJoinsAJobThatRunsAndNeverStartsOne() {
        // Given a machine with a low-priority job for "a"
        var machine = Machine()
        _ = machine.subscribe("a", subscriber: 1, priority: .low, payload: "s1")
        // When subscriber 2 joins "a" at high priority and subscriber 3 tries to join "b"
        let joined = machine.join("a", subscriber: 2, priority: .high, payload: "s2")
        let absent = machine.join("b", subscriber: 3, priority: .normal, payload: "s3")
        // Then "a" is joined and raised, and nothing is started for "b"
        #expect(joined == .join(jobID: 1, newPriority: .high))
        #expect(absent == nil)
        #expect(machine.jobs.count == 1 && machine.jobs["b"] == nil)
        // And the joined subscriber is handed back when the job completes
        #expect(Set(machine.complete("a", jobID: 1)) == ["s1", "s2"])
    }

    @Test func jobRunsAtTheHighestPriorityOfItsSubscribers() {
        var machine = Machine()
        _ = machine.subscribe("a", subscriber: 1, priority: .low, payload: "s1")
        // When a high-priority subscriber joins, the job is raised
        #expect(
            machine.subscribe("a", subscriber: 2, priority: .high, payload: "s2") == .join(jobID: 1, newPriority: .high)
        )
        // When it leaves, the job drops back to the remaining subscriber's priority
        guard case .left(_, _, let newPriority) = machine.unsubscribe("a", subscriber: 2) else {
            Issue.record("expected .left")
            return
        }
        #expect(newPriority == .low)
    }

    @Test func priorityChangeOfOneSubscriberRaisesTheJob() {
        var machine = Machine()
        _ = machine.subscribe("a", subscriber: 1, priority: .low, payload: "s1")
        _ = machine.subscribe("a", subscriber: 2, priority: .low, payload: "s2")
        let change = machine.setPriority("a", subscriber: 2, to: .veryHigh)
        #expect(change?.0 == 1)
        #expect(change?.1 == .veryHigh)
        #expect(machine.setPriority("a", subscriber: 1, to: .normal) == nil)
    }

    @Test func lastSubscriberLeavingCancelsTheJob() {
        // Given a job with two subscribers
        var machine = Machine()
        _ = machine.subscribe("a", subscriber: 1, priority: .normal, payload: "s1")
        _ = machine.subscribe("a", subscriber: 2, priority: .normal, payload: "s2")
        // When the first leaves, the job goes on
        guard case .left(let payload, _, _) = machine.unsubscribe("a", subscriber: 1) else {
            Issue.record("expected .left")
            return
        }
        #expect(payload == "s1")
        // When the last leaves, the job is cancelled and removed
        guard case .leftAndCancelJob(let last, let jobID) = machine.unsubscribe("a", subscriber: 2) else {
            Issue.record("expected .leftAndCancelJob")
            return
        }
        #expect(last == "s2")
        #expect(jobID == 1)
        #expect(machine.jobs.isEmpty)
    }

    @Test func completionOfAReplacedJobIsIgnored() {
        // Given a job abandoned by its only subscriber and a new job for the same key
        var machine = Machine()
        _ = machine.subscribe("a", subscriber: 1, priority: .normal, payload: "s1")
        _ = machine.unsubscribe("a", subscriber: 1)
        #expect(
            machine.subscribe("a", subscriber: 2, priority: .normal, payload: "s2")
                == .start(jobID: 2, priority: .normal))
        // When the old job completes late, nobody is handed its result
        #expect(machine.complete("a", jobID: 1).isEmpty)
        // And the current job's completion hands back its subscriber
        #expect(machine.complete("a", jobID: 2) == ["s2"])
        #expect(machine.jobs.isEmpty)
    }

    @Test func unsubscribingTwiceIsHarmless() {
        var machine = Machine()
        _ = machine.subscribe("a", subscriber: 1, priority: .normal, payload: "s1")
        _ = machine.complete("a", jobID: 1)
        guard case .none = machine.unsubscribe("a", subscriber: 1) else {
            Issue.record("expected .none")
            return
        }
    }
}
