import Dispatch
import PinholeShared

/// Samples the process's thread count and peak resident memory every 100 ms on a utility dispatch queue (never
/// on the main thread), from `/proc/self/status` (``ProcessStats``); and lowers the priority of new decoding threads
/// (``DecodeThreadPriority``).
///
/// Thread-safe; the figures are read under a lock.
final class ProcessMonitor: Sendable {
    struct Sample: Sendable {
        var threads = 0
        var peakThreads = 0
        var peakResidentBytes = 0
    }

    private let state = Locked(Sample())
    private let timer: RepeatingTimer

    /// - Parameter priority: applied to new decoding threads at every sample; `nil` leaves priorities alone.
    init(priority: DecodeThreadPriority? = nil) {
        let state = self.state
        timer = RepeatingTimer(interval: .milliseconds(100), queue: DispatchQueue.global(qos: .utility)) {
            Self.sample(into: state)
            priority?.apply()
        }
        Self.sample(into: state)
        priority?.apply()
        timer.start()
    }

    deinit {
        timer.cancel()
    }

    /// The latest figures.
    var sample: Sample { state.withLock { $0 } }

    func stop() { timer.cancel() }

    private static func sample(into state: Locked<Sample>) {
        let status = ProcessStats.status()
        let threads = ProcessStats.statusValue("Threads:", in: status) ?? 0
        let peak = (ProcessStats.statusValue("VmHWM:", in: status) ?? 0) * 1024
        state.withLock { sample in
            sample.threads = threads
            sample.peakThreads = max(sample.peakThreads, threads)
            sample.peakResidentBytes = max(sample.peakResidentBytes, peak)
        }
    }
}
