import PinholeShared

/// The stage times a job records for ``ImageTaskMetrics`` (only under
/// ``ImagePipeline/Configuration/collectsTaskMetrics``): kept by the job's ``JobContext``, read by each of its
/// callers once the job has ended.
struct JobMetrics: Sendable {
    var stages: [ImageTaskMetrics.Stage: Duration] = [:]
    var source: ImageTaskMetrics.Source?
    var transfer: TransferMetrics?
    /// The data job an image job took its bytes from: its stages count as the image job's.
    var dataJob: JobContext?

    /// Adds `duration` to `stage` (a stage that runs twice is summed).
    mutating func add(_ stage: ImageTaskMetrics.Stage, _ duration: Duration) {
        stages[stage, default: .zero] += duration
    }
}

extension JobContext {
    /// The time now when this job records metrics, else `nil` (and no clock is read): pass it to
    /// ``record(_:since:)`` when the stage ends.
    func metricsClock() -> ContinuousClock.Instant? {
        metrics == nil ? nil : .now
    }

    /// Records `stage` as having run from `start` until now; nothing when `start` is `nil` (metrics are off).
    func record(_ stage: ImageTaskMetrics.Stage, since start: ContinuousClock.Instant?) {
        guard let start, let metrics else { return }
        let elapsed = ContinuousClock.now - start
        metrics.withLock { $0.add(stage, elapsed) }
    }

    /// Records `stage` as having taken `duration`.
    func record(_ stage: ImageTaskMetrics.Stage, _ duration: Duration) {
        metrics?.withLock { $0.add(stage, duration) }
    }

    /// Records where the job's result came from (the latest call wins: a retry after a bad disk entry).
    func recordSource(_ source: ImageTaskMetrics.Source) {
        metrics?.withLock { $0.source = source }
    }

    /// Records what the loader measured: the transfer, and its phases as stages.
    func recordTransfer(_ transfer: TransferMetrics?) {
        guard let transfer, let metrics else { return }
        metrics.withLock { state in
            state.transfer = transfer
            let phases: [(ImageTaskMetrics.Stage, Duration?)] = [
                (.nameLookup, transfer.nameLookup), (.connect, transfer.connect),
                (.secureConnect, transfer.secureConnect), (.firstByte, transfer.firstByte),
                (.download, transfer.download),
            ]
            for case (let stage, let duration?) in phases { state.add(stage, duration) }
        }
    }

    /// Links the data job whose bytes this image job used (joined or started), so its stages count here.
    func recordDataJob(_ dataJob: JobContext) {
        metrics?.withLock { $0.dataJob = dataJob }
    }

    /// What the job recorded, with its data job's stages and transfer added; `nil` when metrics are off.
    var metricsSnapshot: JobMetrics? {
        guard var own = metrics?.withLock({ $0 }) else { return nil }
        if let dataJob = own.dataJob, dataJob !== self, let data = dataJob.metricsSnapshot {
            for (stage, duration) in data.stages { own.add(stage, duration) }
            own.transfer = own.transfer ?? data.transfer
            own.source = own.source ?? data.source
        }
        own.dataJob = nil
        return own
    }
}
