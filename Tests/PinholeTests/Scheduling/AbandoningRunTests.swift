import Foundation
import PinholeShared
import PinholeTestSupport
import Testing

@testable import Pinhole

/// `runAbandoningOnCancel` answers every caller whose body ends, however fast: a body that ended before the caller's
/// continuation was in place used to find no one to answer, and the caller waited for ever (an untrusted source's
/// host check hung a test under load).
@Suite(.timeLimit(scaledMinutes: 1))
struct AbandoningRunTests {
    @Test func aBodyThatEndsBeforeTheCallerIsReadyStillAnswersIt() async throws {
        // Given a body that returns at once, and a caller held just after the work started until the body ended
        let pool = WorkerThreadPool(threadCount: 1, name: "abandon-test")
        let bodyEnded = Locked(false)
        let answer = Locked<Int?>(nil)

        // When it runs
        let caller = Task {
            let value = try await pool.runAbandoningOnCancel(
                {
                    bodyEnded.withLock { $0 = true }
                    return 42
                },
                afterStartingWork: {
                    let deadline = Date().addingTimeInterval(5)
                    while !bodyEnded.withLock({ $0 }) && Date() < deadline { usleep(1000) }
                    usleep(20_000)  // the work's task resumes after the body: give it time to look for a waiter
                })
            answer.withLock { $0 = value }
        }
        defer { caller.cancel() }

        // Then the caller gets the body's value
        #expect(await eventually(timeout: .seconds(10)) { answer.withLock { $0 } == 42 })
    }
}
