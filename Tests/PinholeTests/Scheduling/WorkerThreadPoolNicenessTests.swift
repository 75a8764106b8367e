import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole

#if canImport(Glibc)
    import Glibc
#endif

/// A pool's niceness lands on its own threads, not on the process's other threads.
@Suite(.timeLimit(scaledMinutes: 1))
struct WorkerThreadPoolNicenessTests {
    /// The calling thread's nice value (on Linux, per thread).
    static func currentNiceness() -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    @Test func aPoolsThreadsRunAtItsNicenessAndAnotherPoolsKeepTheirs() async throws {
        // Given a pool of two threads with niceness 5
        let pool = WorkerThreadPool(threadCount: 2, name: "nice-test", niceness: 5)
        // When work runs on it, and on another pool (the whole run may itself be niced)
        var values: [Int32] = []
        for _ in 0..<8 { values.append(try await pool.run { Self.currentNiceness() }) }
        let base = try await WorkerThreadPool.io.run { Self.currentNiceness() }
        // Then every item ran 5 nicer than the other pool's thread
        #expect(values == Array(repeating: min(19, base + 5), count: 8))
    }
}
