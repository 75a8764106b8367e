import PinholeShared

/// One request's side of ``ImageTaskMetrics`` (made only under
/// ``ImagePipeline/Configuration/collectsTaskMetrics``): when it started, its memory-cache lookup, the image job
/// it started or joined; the record once it has ended.
final class TaskMetricsCollector: Sendable {
    private struct State {
        var memoryLookup: Duration?
        var job: JobContext?
        var joined = false
        var record: ImageTaskMetrics?
    }

    private let start = ContinuousClock.now
    private let state = Locked(State())

    /// The record, once the request has ended; `nil` before.
    var record: ImageTaskMetrics? { state.withLock { $0.record } }

    /// Records the memory-cache lookup (exact and size-aware) as having run from `start` until now.
    func recordMemoryLookup(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        state.withLock { $0.memoryLookup = elapsed }
    }

    /// The image job the request waits for, and whether it joined it (`false`: it started it).
    func attach(_ job: JobContext, joined: Bool) {
        state.withLock {
            $0.job = job
            $0.joined = joined
        }
    }

    /// Ends the record: answered from `source` (`nil` for a failure or a cancellation; for a job's answer, the
    /// source the job recorded wins). The first call wins.
    @discardableResult
    func finish(source: ImageTaskMetrics.Source?) -> ImageTaskMetrics {
        let total = ContinuousClock.now - start
        let (memoryLookup, job, joined) = state.withLock { ($0.memoryLookup, $0.job, $0.joined) }
        // Read outside this lock: the job's own locks are leaves.
        let recorded = job?.metricsSnapshot
        var record = ImageTaskMetrics(
            source: source.map { recorded?.source ?? $0 }, joinedExistingJob: joined, total: total,
            transfer: recorded?.transfer,
            stages: recorded?.stages ?? [:])
        if let memoryLookup { record.stages[.memoryCacheLookup] = memoryLookup }
        return state.withLock { state in
            if let earlier = state.record { return earlier }
            state.record = record
            return record
        }
    }
}

extension ImageTaskMetrics.Source {
    /// The finer source for a response's coarse one (what a job that recorded nothing finer answered with).
    init(_ source: ImageResponse.Source) {
        switch source {
        case .memoryCache: self = .memoryCache
        case .diskCache: self = .dataDiskCache
        case .network: self = .network
        case .file: self = .file
        case .providedData: self = .providedData
        }
    }
}
