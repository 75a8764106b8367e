import Foundation
import PinholeShared
import PinholeTestSupport
import Testing

@testable import Pinhole

/// A pool's niceness lands on its own threads, not on the process's other threads.
@Suite(.timeLimit(scaledMinutes: 1))
struct WorkerThreadPoolNicenessTests {
    /// The nice value of each thread whose name starts with `prefix` (field 19 of `/proc/self/task/TID/stat`).
    static func niceValues(ofThreadsNamed prefix: String) -> [Int] {
        (ProcessStats.threadIDs() ?? []).compactMap { thread -> Int? in
            guard let name = ProcessStats.threadName(thread), name.hasPrefix(prefix),
                let stat = try? String(contentsOfFile: "/proc/self/task/\(thread)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm)": state is field 3, nice field 19.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 16 ? Int(fields[16]) : nil
        }
    }

    @Test func aPoolsThreadsRunAtItsNicenessAndTheCallersThreadKeepsItsOwn() async throws {
        // Given a pool of two threads with niceness 5
        let pool = WorkerThreadPool(threadCount: 2, name: "nice-test", niceness: 5)
        // When each has run some work
        for _ in 0..<4 { try await pool.run {} }
        // Then both of its threads are 5 nicer than another pool's (the whole run may itself be niced)
        let named: @Sendable () async -> [Int] = {
            (try? await WorkerThreadPool.io.run { Self.niceValues(ofThreadsNamed: "nice-test") }) ?? []
        }
        // (each thread names itself when it starts, which a loaded machine may do late)
        #expect(await eventually { await named().count == 2 })
        let values = await named()
        let others = try await WorkerThreadPool.io.run { Self.niceValues(ofThreadsNamed: "pinhole-io") }
        let base = try #require(others.first)
        #expect(Set(others) == [base])
        #expect(values == Array(repeating: min(19, base + 5), count: 2))
    }
}
