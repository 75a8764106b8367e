import Foundation
import Pinhole

/// Runs a program as a child process and waits for it without blocking a thread of Swift's cooperative pool
/// (the wait is a `terminationHandler` resuming a continuation).
public enum ChildProcess {
    /// What a child process did.
    public struct Result: Sendable {
        /// The exit status (or the signal number when it was killed by one).
        public var status: Int32
        /// Everything it wrote on stdout, as UTF-8 (only when captured).
        public var standardOutput: String
        /// Wall-clock time from launch to exit, in seconds.
        public var seconds: Double
    }

    /// Runs `executable` with `arguments` and waits for it to exit.
    ///
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments.
    ///   - capturesOutput: whether stdout is kept (in a temporary file, so a full pipe can never stall the
    ///     child); otherwise it goes to /dev/null. stderr always goes to /dev/null.
    ///   - environment: extra environment variables, added to this process's.
    ///   - standardInputLines: lines written to the child's stdin through a pipe, as it reads them (see
    ///     ``feed(_:to:)``); stdin is /dev/null when `nil` (the default).
    /// - Throws: when the program cannot be started, or the stdout file cannot be read.
    public static func run(
        _ executable: String, _ arguments: [String], capturesOutput: Bool = false, environment: [String: String] = [:],
        standardInputLines: [String]? = nil
    ) async throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let inputPipe = standardInputLines.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-bench-\(UUID())").path
        var outputHandle: FileHandle?
        if capturesOutput {
            _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
            outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
            process.standardOutput = outputHandle
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        defer {
            try? outputHandle?.close()
            if capturesOutput { try? FileManager.default.removeItem(atPath: outputPath) }
        }
        let clock = ContinuousClock()
        let start = clock.now
        typealias Exit = (status: Int32, end: ContinuousClock.Instant)
        let (status, end): Exit = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in
                // Dropped at once: on Linux a finished Process keeps its handler, and LeakSanitizer has reported
                // the object graph of Foundation's Process after the benchmark's children exited.
                finished.terminationHandler = nil
                continuation.resume(returning: (finished.terminationStatus, clock.now))
            }
            do {
                try process.run()
                if let inputPipe, let standardInputLines { feed(standardInputLines, to: inputPipe) }
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        var output = ""
        if capturesOutput {
            try outputHandle?.close()
            outputHandle = nil
            output = try await WorkerThreadPool.io.run { try String(contentsOfFile: outputPath, encoding: .utf8) }
        }
        return Result(status: status, standardOutput: output, seconds: (end - start) / .seconds(1))
    }
}
