import Foundation
import PinholeTestSupport

/// Runs a program to completion as a ``SpawnedProcess`` (`posix_spawnp`, reaped on a thread of its own, no other
/// descriptor of the test process, default signal dispositions); waits at most 90 s × the load factor.
///
/// Not Foundation's `Process`: on Linux it learns of a child's exit through a descriptor the child inherits;
/// a tmux server forked by a tmux client (or spawned meanwhile by a parallel test) keeps that descriptor open,
/// and the termination handler then never runs.
enum Spawn {
    /// Runs `arguments[0]` (looked up in `PATH`) with standard input from `/dev/null`, standard output copied
    /// to `outputPath` and standard error discarded; returns the exit status (128 + signal if killed).
    static func run(_ arguments: [String], environment: [String: String]? = nil, outputPath: String = "/dev/null")
        async throws -> Int32
    {
        let result = try await SpawnedProcess.run(arguments, environment: environment)
        if outputPath != "/dev/null" { try await writeData(Data(result.stdout.utf8), toPath: outputPath) }
        return result.status
    }
}
