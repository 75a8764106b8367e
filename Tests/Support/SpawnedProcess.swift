import Foundation
import Synchronization

#if canImport(Glibc)
    public import Glibc
#endif

/// A child process started with `posix_spawnp`, reaped with `waitpid` on a thread of its own: no test blocks
/// the cooperative pool on it, and its exit is always seen.
///
/// Not Foundation's `Process`: on Linux it learns of a child's exit through a descriptor the child inherits (a
/// tmux server forked by a client keeps it open, and the termination handler then never runs), its `run()`
/// blocks the calling thread, and it is never freed after the child exits (a LeakSanitizer report per run).
///
/// The child gets standard input from `/dev/null`, standard output and error in files of its own (a pipe could
/// fill and stall it), default signal dispositions, and no other descriptor of the test process. It stays in
/// the test process's process group, so a watchdog that kills the group (`make test`) kills it too.
///
/// ```swift
/// let result = try await SpawnedProcess.run([PinholeBinary.path, "thumbnail", "a.jpg"], in: directory)
/// #expect(result.status == 0, "\(result.stderr)")
/// ```
public final class SpawnedProcess: Sendable {
    /// What a finished run produced.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal number when a signal ended it.
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The child did not exit within its timeout (it was killed with `SIGKILL`).
    public struct TimedOut: Error, CustomStringConvertible {
        public var arguments: [String]
        public var timeout: Duration
        public var description: String { "\(arguments.joined(separator: " ")) did not exit within \(timeout)" }
    }

    /// The process id.
    public let pid: pid_t
    /// The file that receives the child's standard output.
    public let stdoutPath: String
    /// The file that receives the child's standard error.
    public let stderrPath: String
    private let arguments: [String]
    private let exit: SpawnedProcessExit

    /// Starts `arguments[0]` (looked up in `PATH` when it has no `/`) with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: the child's whole environment; the test process's by default.
    ///   - directory: the child's working directory; the test process's by default.
    /// - Throws: ``SpawnError`` when the program cannot be started.
    public init(_ arguments: [String], environment: [String: String]? = nil, in directory: String? = nil) throws {
        precondition(!arguments.isEmpty, "SpawnedProcess needs a program")
        let scratch = FileManager.default.temporaryDirectory.path + "/pinhole-child-\(UUID().uuidString)"
        stdoutPath = scratch + ".stdout"
        stderrPath = scratch + ".stderr"
        self.arguments = arguments
        pid = try Spawner.spawn(
            arguments, environment: environment, directory: directory, stdout: stdoutPath, stderr: stderrPath)
        exit = SpawnedProcessExit(pid: pid)
    }

    /// A child still running when its handle goes (a test that failed early) is killed, so it never outlives the
    /// test process.
    deinit {
        exit.kill(SIGKILL)
        unlink(stdoutPath)
        unlink(stderrPath)
    }

    /// Sends `signal` (`SIGKILL` by default: no handler, no cleanup), unless the child has already been reaped.
    public func kill(_ signal: Int32 = SIGKILL) {
        exit.kill(signal)
    }

    /// Whether the child has exited (and been reaped).
    public var hasExited: Bool { exit.status != nil }

    /// The exit status once the child has exited and been reaped (128 + the signal number when a signal ended
    /// it), else `nil`.
    public var status: Int32? { exit.status }

    /// Waits for the child to exit, at most `timeout` × ``LoadFactor/current``; kills it with `SIGKILL` when it
    /// has not exited by then, or when the calling task is cancelled (a test's time limit).
    ///
    /// - Returns: the exit status, or 128 + the signal number.
    /// - Throws: ``TimedOut`` after the kill; `CancellationError` when the task was cancelled.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(90)) async throws -> Int32 {
        let bound = LoadFactor.scaled(timeout)
        let (status, timedOut) = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                do { try await Task.sleep(for: bound) } catch { return false }  // the child exited first
                self.kill()
                return true
            }
            let status = await withTaskCancellationHandler {
                await exit.wait()
            } onCancel: {
                self.kill()
            }
            group.cancelAll()
            var timedOut = false
            for await fired in group { timedOut = timedOut || fired }
            return (status, timedOut)
        }
        try Task.checkCancellation()
        if timedOut { throw TimedOut(arguments: arguments, timeout: bound) }
        return status
    }

    /// The child's standard output so far (read on a thread of its own).
    public func stdout() async -> String { await readTextIfPresent(stdoutPath) }

    /// The child's standard error so far (read on a thread of its own).
    public func stderr() async -> String { await readTextIfPresent(stderrPath) }

    /// Waits (checking every 20 ms) until the child's standard output contains `text`, at most `timeout` ×
    /// ``LoadFactor/current``; `false` then, or as soon as the child has exited without printing it.
    public func waitForOutput(_ text: String, timeout: Duration = .seconds(30)) async -> Bool {
        var printed = false
        _ = await eventually(timeout: timeout, every: .milliseconds(20)) {
            let exited = hasExited
            printed = await stdout().contains(text)
            return printed || exited
        }
        return printed
    }

    /// Runs `arguments` to completion and returns its status and output.
    ///
    /// - Parameters:
    ///   - environment: the child's whole environment; the test process's by default.
    ///   - directory: the working directory; the test process's by default.
    ///   - timeout: the bound (× ``LoadFactor/current``) after which the child is killed and ``TimedOut`` thrown.
    public static func run(
        _ arguments: [String], environment: [String: String]? = nil, in directory: String? = nil,
        timeout: Duration = .seconds(90)
    ) async throws -> Result {
        let child = try SpawnedProcess(arguments, environment: environment, in: directory)
        let status = try await child.waitForExit(timeout: timeout)
        return Result(status: status, stdout: await child.stdout(), stderr: await child.stderr())
    }
}

/// A child process could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
