import Foundation
import Pinhole
import PinholeShared

/// Samples the process's thread count every millisecond on a thread of its own (never on a pool that the
/// experiment may be clogging) and keeps the peak.
final class ThreadPeakSampler: Sendable {
    private let state = Locked<(running: Bool, peak: Int)>((true, 0))

    init() {
        state.withLock { $0.peak = ProcessStats.threadCount() }
        let thread = Thread { [self] in
            while state.withLock({ $0.running }) {
                let threads = ProcessStats.threadCount()
                state.withLock { $0.peak = max($0.peak, threads) }
                usleep(1_000)  // a sampling thread of our own: blocking it is the point
            }
        }
        thread.name = "pinhole-sampler"
        thread.start()
    }

    /// Stops sampling; returns the peak thread count seen.
    func stop() -> Int {
        state.withLock {
            $0.running = false
            return $0.peak
        }
    }
}
