import Foundation
import Glibc
import Pinhole

/// Runs a program to completion with `posix_spawnp` and reaps it with `waitpid` on ``WorkerThreadPool/io``; the
/// child gets standard input, output and error and no other descriptor of the test process.
///
/// Not Foundation's `Process`: on Linux it learns of a child's exit through a descriptor the child inherits;
/// a tmux server forked by a tmux client (or spawned meanwhile by a parallel test) keeps that descriptor open,
/// and the termination handler then never runs.
enum Spawn {
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    /// Runs `arguments[0]` (looked up in `PATH`) with standard input from `/dev/null`, standard output to
    /// `outputPath` and standard error discarded; returns the exit status (128 + signal if killed).
    static func run(_ arguments: [String], environment: [String: String]? = nil, outputPath: String = "/dev/null")
        async throws -> Int32
    {
        let environment = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        return try await WorkerThreadPool.io.run { () throws -> Int32 in
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            // Close every other descriptor in the child: a tmux server lives on and would otherwise keep sockets
            // of tests running in parallel open (a server test then never sees its clients leave).
            // (glibc ≥ 2.34 has posix_spawn_file_actions_addclosefrom_np; the Glibc module does not export it.)
            guard let closeFrom = Self.addCloseFrom else {
                throw PinholeError(.fileNotFound, "posix_spawn_file_actions_addclosefrom_np is missing")
            }
            _ = closeFrom(&actions, 3)
            // Default signal handling and an empty mask in the child: dispositions set to "ignore" and blocked
            // signals would otherwise be inherited from the test runner, and a pane's process that ignores
            // SIGHUP keeps a killed tmux server alive.
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
            var envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
            defer { for pointer in envp ?? [] { free(pointer) } }
            var pid: pid_t = 0
            let spawned: Int32 =
                if envp != nil {
                    posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, &envp!)
                } else {
                    posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
                }
            guard spawned == 0 else {
                throw PinholeError(.fileNotFound, "cannot run \(arguments[0]): error \(spawned)")
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let signal = status & 0x7F
            return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        }
    }
}
