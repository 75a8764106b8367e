import Foundation
import Glibc
import Pinhole
import PinholeShared

/// A child process that runs while the test goes on (a virtual X server, a terminal), started with `posix_spawnp`
/// and always ended by the test: ``stop()`` sends `SIGTERM`, waits a bounded time, then `SIGKILL`s and reaps it.
///
/// The child gets standard input from `/dev/null`, standard output and error to files, no other descriptor of the
/// test process (a child that lived on would keep the test runner's sockets open), default signal handling and an
/// empty signal mask. Waiting polls `waitpid(WNOHANG)` with `Task.sleep` in between: no thread blocks.
final class BackgroundProcess: Sendable {
    /// The child's process id.
    let pid: pid_t
    /// Where its standard output goes.
    let outputPath: String
    private let exitStatus = Locked<Int32?>(nil)

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// Starts `arguments[0]` (looked up in `PATH`) with `environment` (the test's own when `nil`).
    ///
    /// - Throws: ``PinholeError`` when the program cannot be started.
    init(
        _ arguments: [String], environment: [String: String]? = nil, outputPath: String,
        errorPath: String = "/dev/null"
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard let closeFrom = Self.addCloseFrom else {
            throw PinholeError(.fileNotFound, "posix_spawn_file_actions_addclosefrom_np is missing")
        }
        _ = closeFrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, &envp)
        guard spawned == 0 else { throw PinholeError(.fileNotFound, "cannot run \(arguments[0]): error \(spawned)") }
        self.pid = child
        self.outputPath = outputPath
    }

    /// The exit status once the child has ended (128 + signal if killed), else `nil`; reaps it.
    var status: Int32? {
        exitStatus.withLock { status in
            if status == nil {
                var raw: Int32 = 0
                if waitpid(pid, &raw, WNOHANG) == pid {
                    let signal = raw & 0x7F
                    status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
                }
            }
            return status
        }
    }

    /// Waits until the child ends, at most `timeout`; returns its status or `nil`.
    func waitForExit(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while status == nil && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return status
    }

    /// Ends the child: `SIGTERM`, up to `grace` to exit, then `SIGKILL` (always reaped). Safe to call twice.
    @discardableResult
    func stop(grace: Duration = .seconds(10)) async -> Int32? {
        guard status == nil else { return status }
        kill(pid, SIGTERM)
        if let status = await waitForExit(timeout: grace) { return status }
        kill(pid, SIGKILL)
        return await waitForExit(timeout: .seconds(10))
    }

    /// The child's standard output so far.
    func output() async -> String {
        let path = outputPath
        return (try? await WorkerThreadPool.io.run { try String(contentsOfFile: path, encoding: .utf8) }) ?? ""
    }
}
