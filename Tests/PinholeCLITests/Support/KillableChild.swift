import Foundation
import PinholeTestSupport

/// A `pinhole` child process that can be waited for a line of output and killed with SIGKILL (a
/// ``SpawnedProcess``; one still running when the test lets go of it is killed).
final class KillableChild: Sendable {
    private let child: SpawnedProcess

    init(_ arguments: [String]) throws {
        child = try SpawnedProcess([PinholeBinary.path] + arguments)
    }

    /// Waits until stdout contains `text`; `false` after `timeout` × the load factor, or when the child exited
    /// without printing it.
    func waitForOutput(_ text: String, timeout: Duration = .seconds(30)) async -> Bool {
        await child.waitForOutput(text, timeout: timeout)
    }

    /// Sends SIGKILL (no handler, no cleanup: the process stops between any two instructions).
    func kill() {
        child.kill()
    }

    /// Waits for the process to end (at most 90 s × the load factor, then it is killed); its status, 128 + the
    /// signal number when a signal ended it.
    func waitForExit() async throws -> Int32 {
        try await child.waitForExit()
    }
}
