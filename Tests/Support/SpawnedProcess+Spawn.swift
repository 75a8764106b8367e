import Foundation
import PinholeShared

#if canImport(Glibc)
    import Glibc
#endif

/// The exit of one child: a thread of its own waits for it (never a pool thread) and records the status;
/// ``SpawnedProcess/kill(_:)`` signals only a child not yet reaped, so a reused pid is never hit.
final class SpawnedProcessExit: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let pid: pid_t
    private let state = Locked(State())

    init(pid: pid_t) {
        self.pid = pid
        let thread = Thread { [self] in reap() }
        thread.name = "test-reaper"
        thread.stackSize = 256 << 10
        thread.start()
    }

    var status: Int32? { state.withLock { $0.status } }

    /// Waits for the exit (a zombie stays until reaped, so the pid stays ours), then reaps it under the lock.
    private func reap() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        let waiters = state.withLock { state -> [CheckedContinuation<Int32, Never>] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            let signal = raw & 0x7F
            state.status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
            defer { state.waiters = [] }
            return state.waiters
        }
        let status = self.status ?? -1
        for waiter in waiters { waiter.resume(returning: status) }
    }

    func kill(_ signal: Int32) {
        state.withLock { state in
            if state.status == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status = state.withLock { state -> Int32? in
                if state.status == nil { state.waiters.append(continuation) }
                return state.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }
}

/// `posix_spawnp` with the file actions and attributes ``SpawnedProcess`` documents.
enum Spawner {
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

    // glibc ≥ 2.34 and ≥ 2.29 have these; the Glibc module does not export them (they sit behind _GNU_SOURCE).
    private static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    private static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<T>(_ name: String) -> T? {
        guard let pointer = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(pointer, to: T.self)
    }

    /// Starts the child; returns its pid. (`posix_spawn` returns once the child has exec'd or failed: a short
    /// wait, as for `fork`.)
    static func spawn(
        _ arguments: [String], environment: [String: String]?, directory: String?, stdout: String, stderr: String
    ) throws -> pid_t {
        guard let closeFrom = addCloseFrom, let chdir = addChdir else {
            throw SpawnError("posix_spawn_file_actions_addclosefrom_np/addchdir_np are missing")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let directory { _ = chdir(&actions, directory) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // No other descriptor of the test process: a child that lives on (a tmux server) would otherwise keep
        // sockets of tests running in parallel open.
        _ = closeFrom(&actions, 3)
        // Default dispositions and an empty mask: ignored or blocked signals of the test runner would otherwise
        // be inherited (a pane's process that ignores SIGHUP keeps a killed tmux server alive).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let pairs = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var envp: [UnsafeMutablePointer<CChar>?] = pairs.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, &envp)
        guard spawned == 0 else {
            throw SpawnError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        return pid
    }
}
