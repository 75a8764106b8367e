import Foundation
import Pinhole

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `pinhole` executable (the one next to the test bundle) as a child process.
///
/// The child's stdout and stderr go to files (a pipe could fill and stall it); the caller's task waits on
/// the process's termination handler, so no thread of the cooperative pool blocks.
enum PinholeBinary {
    /// What a run produced.
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable: `PINHOLE_BINARY` if set, else the `pinhole` SwiftPM built next to the running test
    /// bundle (so `--scratch-path .build-asan` runs the sanitized binary), else `.build/debug/pinhole`.
    static var path: String {
        if let path = ProcessInfo.processInfo.environment["PINHOLE_BINARY"] { return path }
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let sibling = bundleDirectory.appendingPathComponent("pinhole").path
        if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        return Fixtures.repositoryRoot.appendingPathComponent(".build/debug/pinhole").path
    }

    /// The child did not finish (or its exit was not reported) within the timeout.
    struct TimedOut: Error {
        var arguments: [String]
    }

    /// Runs `pinhole arguments…` in `directory` and waits for it to exit, at most `timeout`.
    static func run(_ arguments: [String], in directory: String, timeout: Duration = .seconds(90)) async throws
        -> Result
    {
        let scratch = FileManager.default.temporaryDirectory.path
        let output = scratch + "/pinhole-stdout-\(UUID().uuidString)"
        let errors = scratch + "/pinhole-stderr-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: output)
            try? FileManager.default.removeItem(atPath: errors)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle.nullDevice
        let outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        // The continuation is resumed exactly once: by the termination handler, or by the watchdog when the
        // handler has not come within `timeout` (the child is then killed), so a lost handler fails the test
        // instead of hanging the whole run.
        let pending = Locked<CheckedContinuation<Int32, any Error>?>(nil)
        let finish = { @Sendable (result: Swift.Result<Int32, any Error>) in
            pending.withLock { continuation in
                continuation?.resume(with: result)
                continuation = nil
            }
        }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            pending.withLock { $0 = continuation }
            process.terminationHandler = { finished in finish(.success(finished.terminationStatus)) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                finish(.failure(error))
                return
            }
            let pid = process.processIdentifier
            Task {
                try? await Task.sleep(for: timeout)
                let stillWaiting = pending.withLock { $0 != nil }
                if stillWaiting { kill(pid, SIGKILL) }
                finish(.failure(TimedOut(arguments: arguments)))
            }
        }
        process.terminationHandler = nil  // FoundationNetworking keeps the handler (and what it holds) otherwise
        try outputHandle.close()
        try errorHandle.close()
        return try await WorkerThreadPool.io.run {
            Result(status: status,
                   stdout: try String(contentsOfFile: output, encoding: .utf8),
                   stderr: try String(contentsOfFile: errors, encoding: .utf8))
        }
    }
}

/// The `--json` report as the tests read it.
struct JSONReport: Decodable {
    struct Output: Decodable {
        var input: String
        var output: String
        var width: Int
        var height: Int
    }

    struct Failure: Decodable {
        var input: String
        var kind: String
        var message: String
    }

    struct ContactSheet: Decodable {
        var output: String
        var width: Int
        var height: Int
    }

    var succeeded: Int
    var failed: Int
    var seconds: Double
    var imagesPerSecond: Double
    var peakRSSBytes: Int
    var bytesIn: Int
    var bytesOut: Int
    var outputs: [Output]
    var errors: [Failure]
    var contactSheet: ContactSheet?
    var downloads: Int
    var coalesced: Int
    var memoryHits: Int
    var diskHits: Int

    init(_ text: String) throws {
        self = try JSONDecoder().decode(JSONReport.self, from: Data(text.utf8))
    }
}
