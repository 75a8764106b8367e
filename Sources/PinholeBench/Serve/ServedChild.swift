import Foundation
import PinholeShared

#if canImport(Glibc)
    import Glibc
#endif

/// A long-running child process (the server under test, nginx): started, asked for `/proc` figures while it
/// runs, then stopped with SIGTERM and waited for without blocking a thread (its exit resumes a continuation).
///
/// Not `Sendable`: it lives in the task that started it.
final class ServedChild {
    /// The child's process ID.
    let pid: Int32
    /// What the child is, for messages.
    let name: String
    private let process: Process
    private let exit: ExitLatch

    /// Starts `executable` with `arguments` and this process's environment plus `environment`; stdout goes to
    /// `outputFile` (or /dev/null), stderr to `logFile` (or /dev/null).
    ///
    /// - Throws: when the program cannot be started.
    init(
        _ name: String, executable: String, arguments: [String], environment: [String: String] = [:],
        logFile: String? = nil, outputFile: String? = nil
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        if let outputFile {
            _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputFile))
        }
        if let logFile {
            _ = FileManager.default.createFile(atPath: logFile, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        } else {
            process.standardError = FileHandle.nullDevice
        }
        let exit = ExitLatch()
        process.terminationHandler = { finished in exit.exited(finished.terminationStatus) }
        try process.run()
        self.process = process
        self.exit = exit
        self.name = name
        pid = process.processIdentifier
    }

    /// CPU and peak RSS of the child now (zero once it has exited).
    var sample: ProcessSample {
        ProcessSample.read(pid: pid) ?? ProcessSample(cpuSeconds: 0, peakResidentBytes: 0)
    }

    /// Waits until `GET url` answers 200 (tried with curl every 100 ms), for at most `seconds`.
    ///
    /// - Throws: ``BenchServeError`` when the child exits first or never answers.
    func waitUntilAnswering(_ url: String, seconds: Double = 20) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        while clock.now < deadline {
            if exit.status != nil { throw BenchServeError("\(name) exited before it answered \(url)") }
            let probe = try await ChildProcess.run(
                "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "2", url],
                capturesOutput: true)
            if probe.standardOutput == "200" { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchServeError("\(name) did not answer \(url) within \(seconds) s")
    }

    /// Sends SIGTERM and waits for the exit (SIGKILL after `graceSeconds`); returns the exit status.
    @discardableResult
    func stop(graceSeconds: Int = 30) async -> Int32 {
        if exit.status == nil { kill(pid, SIGTERM) }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(graceSeconds)
        while exit.status == nil, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if exit.status == nil { kill(pid, SIGKILL) }
        return await exit.wait()
    }
}

/// The exit status of a child, once it has exited, and the callers waiting for it.
final class ExitLatch: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let state = Locked(State())

    var status: Int32? { state.withLock { $0.status } }

    func exited(_ status: Int32) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int32, Never>] in
            state.status = status
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Int32? in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}
