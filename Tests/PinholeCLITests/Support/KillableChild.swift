import Foundation
import Glibc

/// A `pinhole` child process that can be waited for a line of output and killed with SIGKILL.
///
/// Stdout goes to a file that ``waitForOutput(_:timeout:)`` polls (no pipe to fill, no blocked thread);
/// termination is awaited through the process's termination handler.
final class KillableChild: Sendable {
    private let process: Process
    private let outputPath: String
    private let exit: AsyncStream<Int32>

    init(_ arguments: [String]) throws {
        outputPath = FileManager.default.temporaryDirectory.path + "/pinhole-child-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PinholeBinary.path)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = FileHandle.nullDevice
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { finished in
            continuation.yield(finished.terminationStatus)
            continuation.finish()
        }
        self.process = process
        self.exit = stream
        try process.run()
    }

    deinit { try? FileManager.default.removeItem(atPath: outputPath) }

    /// Waits (polling every 5 ms) until stdout contains `text`; `false` after `timeout` or when the child exited.
    func waitForOutput(_ text: String, timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let data = FileManager.default.contents(atPath: outputPath), String(decoding: data, as: UTF8.self)
                .contains(text)
            {
                return true
            }
            if !process.isRunning { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    /// Sends SIGKILL (no handler, no cleanup: the process stops between any two instructions).
    func kill() {
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the process to end; its termination status (the signal number when killed).
    func waitForExit() async -> Int32 {
        for await status in exit { return status }
        return process.terminationStatus
    }
}
