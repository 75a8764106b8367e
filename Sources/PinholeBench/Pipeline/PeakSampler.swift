import Foundation
import Pinhole

/// Samples a figure every 5 ms on a dispatch timer (independent of Swift's cooperative pool) and keeps its peak.
final class PeakSampler: Sendable {
    private let state = Locked(0)
    private let timer: RepeatingTimer

    init(_ sample: @escaping @Sendable () -> Int) {
        let state = self.state
        timer = RepeatingTimer(interval: .milliseconds(5), queue: DispatchQueue(label: "pinhole.bench.sampler")) {
            let value = sample()
            state.withLock { $0 = max($0, value) }
        }
        state.withLock { $0 = sample() }
    }

    func start() { timer.start() }
    func stop() { timer.cancel() }

    /// The largest sample so far.
    var peak: Int { state.withLock { $0 } }
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
