import Foundation
import Pinhole
import PinholeShared

/// Samples a figure every 5 ms on a dispatch timer (independent of Swift's cooperative pool) and keeps its peak,
/// and the CPU time its own sampling took (so a CPU measure can leave it out).
final class PeakSampler: Sendable {
    private struct State {
        var peak = 0
        var cpuSeconds = 0.0
    }

    private let state = Locked(State())
    private let timer: RepeatingTimer

    init(_ sample: @escaping @Sendable () -> Int) {
        let state = self.state
        timer = RepeatingTimer(interval: .milliseconds(5), queue: DispatchQueue(label: "pinhole.bench.sampler")) {
            let start = Self.threadCPUSeconds()
            let value = sample()
            let spent = Self.threadCPUSeconds() - start
            state.withLock {
                $0.peak = max($0.peak, value)
                $0.cpuSeconds += spent
            }
        }
        let first = sample()
        state.withLock { $0.peak = first }
    }

    func start() { timer.start() }
    func stop() { timer.cancel() }

    /// The largest sample so far.
    var peak: Int { state.withLock { $0.peak } }

    /// CPU time spent sampling so far, seconds.
    var cpuSeconds: Double { state.withLock { $0.cpuSeconds } }

    /// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), seconds.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Counts loads; answers after `delay` (so that concurrent callers overlap) like ``InstantDataLoader``.
final class CountingDataLoader: DataLoading {
    private let count = Locked(0)
    private let delay: Duration
    var loads: Int { count.withLock { $0 } }

    init(delay: Duration) { self.delay = delay }

    func loadData(for request: DataRequest) async throws -> DataResponse {
        count.withLock { $0 += 1 }
        try await Task.sleep(for: delay)
        return try await InstantDataLoader().loadData(for: request)
    }
}

extension Samples {
    /// The samples without the first (warm-up) one.
    func droppingFirst() -> Samples { Samples(Array(values.dropFirst())) }
}
