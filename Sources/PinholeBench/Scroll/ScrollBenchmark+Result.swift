import Foundation
import PinholeTestServer

extension ScrollBenchmark {
    /// Turns one run's figures and books into a ``ScrollResult``.
    func makeResult(
        _ strategy: Strategy, figures: ScrollRun.Figures, ledger: ScrollLedger, downloads: DownloadLog, stats: Stats
    ) -> ScrollResult {
        let frames = FrameStatistics(tickSeconds: figures.tickSeconds)
        let left = ledger.leftEarlyURLs
        var cancelled = 0
        var completed = 0
        var unfinished = 0
        for url in left {
            switch downloads.outcome(of: url.absoluteString) {
            case nil, .cancelled?: cancelled += 1
            case .completed?, .failed?: completed += 1
            case .started?: unfinished += 1
            }
        }
        let lastArrival = ledger.lastArrivalSeconds ?? 0
        var settle = max(0, lastArrival - figures.scriptEndSeconds)
        if figures.timedOut { settle = max(settle, figures.finishSeconds - figures.scriptEndSeconds) }
        var result = ScrollResult(
            strategy: strategy.rawValue, rows: configuration.rows, visibleRows: configuration.visibleRows,
            latencyMs: configuration.latencyMs, refresh: configuration.refresh,
            baselineThreads: figures.sampler.startThreads, peakThreads: figures.sampler.peakThreads,
            frameP50Ms: frames.p50Ms, frameP99Ms: frames.p99Ms, rawFrameP99Ms: frames.rawP99Ms,
            maxFrameMs: frames.maxMs,
            mainWorkP99Ms: FrameStatistics.percentile(99, of: figures.workMilliseconds),
            mainWorkMaxMs: figures.workMilliseconds.max() ?? 0, loadAverage: Self.loadAverage(),
            frames: figures.tickSeconds.count, hitches: frames.hitches, hangs: frames.hangs,
            startRSSBytes: figures.sampler.startResidentBytes, peakRSSBytes: figures.sampler.peakResidentBytes,
            requestsStarted: stats.requestsStarted, requestsCompleted: stats.requestsCompleted,
            requestsCancelled: stats.requestsAborted, distinctURLs: ledger.distinctURLs.count,
            duplicateDownloads: downloads.duplicates, downloadsRestartedAfterCancel: downloads.restartsAfterCancel,
            imagesShown: ledger.imagesShown, wrongRowImages: ledger.wrongRowImages,
            unreadableImages: ledger.unreadableImages,
            bindToImageP50Ms: FrameStatistics.percentile(50, of: ledger.bindToImageMilliseconds),
            bindToImageMaxMs: ledger.bindToImageMilliseconds.max() ?? 0, settleSeconds: settle,
            timedOut: figures.timedOut, leftEarly: left.count, leftEarlyCancelled: cancelled,
            leftEarlyCompleted: completed, leftEarlyUnfinished: unfinished,
            cancelledOfLeft: left.isEmpty ? 1 : Double(cancelled) / Double(left.count),
            finalVisibleRows: figures.finalVisibleRows, finalRowsShowingOwnImage: figures.finalRowsShowingOwnImage,
            runSeconds: figures.finishSeconds)
        let cpu = figures.phases.map(\.cpu)
        result.mainCPUP99Ms = FrameStatistics.percentile(99, of: cpu)
        result.mainCPUMaxMs = cpu.max() ?? 0
        let allJobs = FramePhases.cpuBetweenTicks(figures.phases)
        result.mainCPUAllJobsP99Ms = FrameStatistics.percentile(99, of: allJobs)
        result.mainCPUAllJobsMaxMs = allJobs.max() ?? 0
        result.mainActorProfile =
            FramePhases.profile(figures.phases) + "; "
            + FramePhases.slowFrames(figures.phases, wallMilliseconds: figures.workMilliseconds)
        return result
    }

    /// The 1-minute load average from `/proc/loadavg`; 0 if unknown.
    static func loadAverage() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return 0 }
        return text.split(separator: " ").first.flatMap { Double($0) } ?? 0
    }
}
