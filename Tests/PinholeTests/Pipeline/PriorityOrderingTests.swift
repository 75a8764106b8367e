import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// Priority changes reach the queues in the order they were made: after any burst of concurrent changes, the
/// queued work runs at the highest priority its callers hold at the end.
@Suite(.timeLimit(scaledMinutes: 2))
struct PriorityOrderingTests {
    /// Real threads, so that changes overlap as they do when priorities are set from anywhere (more threads than
    /// cores, so a thread is often preempted in the middle of a change). 60 rounds in a sanitized run, where the
    /// 300 rounds' 8 busy threads competed for 2 cores with every other test of the target (its ThreadSanitizer run
    /// took 110–121 s with 300 rounds, 88–90 s with 60). ThreadSanitizer sees a race from the order of accesses, not
    /// from many tries.
    static let rounds = LoadFactor.isSanitizedRun ? 60 : 300
    static let threads = WorkerThreadPool(threadCount: 8, name: "pinhole-prio")

    @Test func rapidChangesFromManyTasksLeaveTheQueueAtTheCallersFinalHighestPriority() async throws {
        // Given one network slot held by a blocker, so every other load waits in the queue
        let fixture = PipelineFixture(networkLimit: 1, memoryCache: false)
        let blocker = fixture.pipeline.imageTask(
            for: ImageRequest(url: PipelineFixture.url("blocker.jpg"), maxPixelSize: 8))
        defer { blocker.cancel() }
        try #require(await eventually { fixture.loader.waitingURLs.count == 1 })
        let priorities = ImageRequest.Priority.allCases
        var mismatches: [String] = []
        for round in 0..<Self.rounds {
            // And 6 callers of one image, all joined into one job whose load waits in the queue (the first starts
            // the job in its task; the others join it from theirs, which a loaded machine may run late: a change
            // made before a caller joined is read when it joins, but that may be after the check below)
            let url = PipelineFixture.url("shared-\(round).jpg")
            let joinsBefore = fixture.pipeline.imageJobs.joinCount
            let callers = (0..<6).map { _ in
                fixture.pipeline.imageTask(for: ImageRequest(url: url, maxPixelSize: 8, priority: .normal))
            }
            try #require(await eventually { fixture.pipeline.networkQueueCounts.waiting == 1 })
            try #require(await eventually { fixture.pipeline.imageJobs.joinCount - joinsBefore == callers.count - 1 })
            // When 8 threads change the callers' priorities as fast as they can, all at once
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        _ = try? await Self.threads.run {
                            var generator = SplitMix(seed: UInt64(round * 8 + worker))
                            for _ in 0..<100 {
                                let caller = callers[Int(generator.next() % UInt64(callers.count))]
                                caller.priority = priorities[Int(generator.next() % UInt64(priorities.count))]
                            }
                        }
                    }
                }
            }
            // Then the waiting load sits at the highest priority the callers hold now
            let expected = callers.map(\.priority).max()
            let queued = fixture.pipeline.networkQueue.waitingPriorities
            if queued != expected.map({ [$0] }) {
                mismatches.append("round \(round): queued \(queued), callers' highest \(String(describing: expected))")
            }
            for caller in callers { caller.cancel() }
            try #require(await eventually { fixture.pipeline.networkQueueCounts.waiting == 0 })
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(Self.rounds) rounds: \(mismatches.prefix(5))")
        fixture.loader.releaseAutomatically()
    }
}

/// A small deterministic random generator (SplitMix64), so a failing round can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
