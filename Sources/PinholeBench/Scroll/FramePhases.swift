import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where one tick of the scroll reproduction's frame loop spent its time on the main actor: the main thread's CPU
/// milliseconds per phase and for the whole tick (`CLOCK_THREAD_CPUTIME_ID`, which, unlike wall time, does not
/// grow while other processes hold the core).
struct FramePhases: Sendable, Codable, Hashable {
    /// Sampling threads and RSS for the figures (the measurement's own cost).
    var sampling = 0.0
    /// Rebinding every visible row to its refreshed URL.
    var refresh = 0.0
    /// Rows that left the screen.
    var disappear = 0.0
    /// Rows that came on screen.
    var appear = 0.0
    /// Drawing the visible cells.
    var draw = 0.0
    /// The main thread's CPU time over the whole tick.
    var cpu = 0.0
    private var startCPU: Double

    init(startCPU: Double) {
        self.startCPU = startCPU
    }

    /// Runs `body` and records the thread's CPU time it took, in milliseconds, under `phase`.
    mutating func measure(_ phase: WritableKeyPath<FramePhases, Double>, _ body: () -> Void) {
        let start = Self.threadCPUSeconds()
        body()
        self[keyPath: phase] += (Self.threadCPUSeconds() - start) * 1000
    }

    /// Records the tick's CPU time (call at its end).
    mutating func finish() {
        cpu = (Self.threadCPUSeconds() - startCPU) * 1000
    }

    /// This thread's CPU time in seconds.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// One line per phase: p50, p99 and maximum over `phases`, in milliseconds.
    static func profile(_ phases: [FramePhases]) -> String {
        let rows: [(String, KeyPath<FramePhases, Double>)] = [
            ("sampling", \.sampling), ("refresh", \.refresh), ("disappear", \.disappear), ("appear", \.appear),
            ("draw", \.draw), ("main-thread CPU", \.cpu),
        ]
        return rows.map { name, keyPath in
            let values = phases.map { $0[keyPath: keyPath] }
            return String(
                format: "%@ p50 %.3f / p99 %.3f / max %.3f ms", name, FrameStatistics.percentile(50, of: values),
                FrameStatistics.percentile(99, of: values), values.max() ?? 0)
        }.joined(separator: "; ")
    }
}
