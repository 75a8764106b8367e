import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How much slower than an idle machine this run may be. Every bounded wait in the tests
/// (``eventually(timeout:every:_:)``, child-process timeouts) is multiplied by it, so a loaded machine stretches
/// the bounds instead of failing them. A bound is never a speed assertion: it only turns "never" into a failure.
///
/// The factor is `PINHOLE_TEST_LOAD_FACTOR` when set (a number; `scripts/stress-tests.sh` sets it from the load
/// it creates), else the 1-minute load average per active core, read again at each call (a parallel run's own
/// load rises after it starts); never below 1 (or `PINHOLE_TEST_MIN_LOAD_FACTOR`, which the sanitizer runs set to
/// 4: sanitized code is slower without raising the load) nor above ``maximum``.
public enum LoadFactor {
    /// The largest factor: a wait of 10 s may stretch to 80 s at most, still inside the 2-minute time limits
    /// that the slowest suites carry.
    public static let maximum = 8.0

    /// The factor now (1 on an idle machine).
    public static var current: Double {
        let environment = ProcessInfo.processInfo.environment
        let floor = environment["PINHOLE_TEST_MIN_LOAD_FACTOR"].flatMap(Double.init).map { max($0, 1) } ?? 1
        if let text = environment["PINHOLE_TEST_LOAD_FACTOR"], let value = Double(text) {
            return min(max(value, floor), maximum)
        }
        return min(max(loadPerCore ?? 1, floor), maximum)
    }

    /// Whether this run is a sanitizer's: `make test-asan` / `test-tsan` set `ASAN_OPTIONS` / `TSAN_OPTIONS` and
    /// build into `.build-asan` / `.build-tsan`. There, CPU-bound stress loops cost 5–20 times more, so they run
    /// fewer rounds, and benchmarks' shapes are not checked. (The bundle path alone missed it: under `swift test`
    /// the first argument is SwiftPM's test helper.)
    public static var isSanitizedRun: Bool {
        let environment = ProcessInfo.processInfo.environment
        if environment["ASAN_OPTIONS"] != nil || environment["TSAN_OPTIONS"] != nil { return true }
        return CommandLine.arguments.contains { $0.contains("/.build-asan/") || $0.contains("/.build-tsan/") }
    }

    /// `duration` × ``current``.
    public static func scaled(_ duration: Duration) -> Duration {
        duration * current
    }

    /// The 1-minute load average (`getloadavg`, from `/proc/loadavg`) divided by the active processor count;
    /// `nil` when the system does not report it.
    static var loadPerCore: Double? {
        var loads = [0.0, 0.0, 0.0]
        guard getloadavg(&loads, 3) >= 1 else { return nil }
        return loads[0] / Double(max(1, ProcessInfo.processInfo.activeProcessorCount))
    }
}
