import Foundation

/// The settings of `pinhole bench serve --overload` (``ServeBenchmark/runOverload(progress:)``): the server's
/// admission flags and the length and rate of each phase.
public struct ServeOverloadSettings: Sendable {
    /// The server's `--memory-budget`, in bytes; 256,000,000 by default.
    public var memoryBudget = 256_000_000
    /// The server's `--active-limit`; `nil` (the default) leaves the server's own (2 × its concurrency).
    public var activeLimit: Int?
    /// The server's `--queue-limit`; the core count by default: with 2 × cores answers made at once, an admitted
    /// request waits for at most half as many as are being made, which keeps its p99 within issue 27's 4 × the
    /// unloaded p99 (a queue of 2 × cores gave 4.32 × and fewer 200s on an idle machine; BENCHMARKS.md).
    public var queueLimit = ProcessInfo.processInfo.activeProcessorCount
    /// The server's `--queue-timeout`, in seconds; 2 by default (far above the wait the queue limit allows, so
    /// refusals come from a full queue, at once, not after a wait).
    public var queueTimeoutSeconds = 2.0
    /// Seconds of the closed-loop capacity run (wrk at 2 × cores connections); 10 by default.
    public var capacitySeconds = 10
    /// Seconds of the unloaded open-loop run; 15 by default.
    public var unloadedSeconds = 15.0
    /// The unloaded run's rate as a fraction of the capacity; 0.25 by default.
    public var unloadedFraction = 0.25
    /// Seconds of the overload run; 60 by default.
    public var seconds = 60.0
    /// The overload run's rate as a multiple of the capacity; 3 by default.
    public var factor = 3.0
    /// Seconds of RSS samples (one a second) after the load stops; 30 by default.
    public var recoverySeconds = 30
    /// The fewest requests the unloaded run sends, whatever the capacity; 1 by default (so it has a p99 when the
    /// capacity measured is tiny, as on a machine busy with other work).
    public var minimumUnloadedRequests = 1
    /// The fewest requests the overload run sends, whatever the capacity; 0 by default. A test sets it above the
    /// server's places and queue so that a capacity measured low still overloads.
    public var minimumOverloadRequests = 0
    /// Variables added to the server's environment (`MALLOC_ARENA_MAX=2`, …); none by default.
    public var serverEnvironment: [String: String] = [:]
    /// The repository's `scripts` directory (`bench-venv.sh`, `open-loop-load.py`).
    public var scriptsDirectory: String

    public init(scriptsDirectory: String) {
        self.scriptsDirectory = scriptsDirectory
    }

    /// The unloaded run's rate, in requests per second, for a capacity in answers per second:
    /// ``unloadedFraction`` × it, raised to send ``minimumUnloadedRequests`` in ``unloadedSeconds``.
    public func unloadedRate(capacity: Double) -> Double {
        max(unloadedFraction * capacity, Double(minimumUnloadedRequests) / unloadedSeconds)
    }

    /// The overload run's rate, in requests per second, for a capacity in answers per second: ``factor`` × it,
    /// raised to send ``minimumOverloadRequests`` in ``seconds``.
    public func overloadRate(capacity: Double) -> Double {
        max(factor * capacity, Double(minimumOverloadRequests) / seconds)
    }

    /// The flags the server is started with.
    var serverArguments: [String] {
        [
            "--memory-budget", String(memoryBudget), "--queue-limit", String(queueLimit), "--queue-timeout",
            String(queueTimeoutSeconds),
        ] + (activeLimit.map { ["--active-limit", String($0)] } ?? [])
    }
}
