import Dispatch
import Foundation
import Pinhole
import PinholeShared

/// One strategy's run of the headless list: a 60 Hz frame loop on the main actor, driven by a
/// `RepeatingTimer` (PinholeShared) on the main dispatch queue (independent of Swift's cooperative pool).
///
/// Every tick: record the time, sample threads and memory, apply a due refresh (every visible row gets a new
/// URL), move the window per the ``ScrollScript`` (rows that leave disappear, rows that enter appear) and draw
/// the visible cells. After the script ends, the loop goes on until the strategy settles or a cap is reached.
@MainActor
final class ScrollRun {
    struct Figures {
        var tickSeconds: [Double]
        /// Time spent inside each tick (the main actor's own work for the frame), in milliseconds.
        var workMilliseconds: [Double]
        /// Where each tick's time went (wall and main-thread CPU), for the profile of the main actor's work.
        var phases: [FramePhases] = []
        var sampler: ProcessPeaks
        var scriptEndSeconds: Double
        var finishSeconds: Double
        var timedOut: Bool
        var finalVisibleRows: Int
        var finalRowsShowingOwnImage: Int
    }

    private let script: ScrollScript
    private let refreshIntervalSeconds: Double?
    private let settleCapSeconds: Double
    private let totalCapSeconds: Double
    private let urlForRow: (_ row: Int, _ generation: Int) -> URL
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var strategy: (any ScrollRowStrategy)?
    private var timer: RepeatingTimer?
    private var continuation: CheckedContinuation<Void, Never>?
    private var visible: Range<Int> = 0..<0
    private var generation = 0
    private var nextRefreshSeconds: Double
    private var scriptEndSeconds: Double?
    private var figures: Figures
    private var onFinish: (@MainActor (Figures) -> Void)?

    init(
        script: ScrollScript,
        refreshIntervalSeconds: Double?,
        settleCapSeconds: Double,
        totalCapSeconds: Double,
        urlForRow: @escaping (_ row: Int, _ generation: Int) -> URL
    ) {
        self.script = script
        self.refreshIntervalSeconds = refreshIntervalSeconds
        self.settleCapSeconds = settleCapSeconds
        self.totalCapSeconds = totalCapSeconds
        self.urlForRow = urlForRow
        self.start = clock.now
        self.nextRefreshSeconds = refreshIntervalSeconds ?? .infinity
        self.figures = Figures(
            tickSeconds: [], workMilliseconds: [], sampler: ProcessPeaks(), scriptEndSeconds: 0, finishSeconds: 0,
            timedOut: false,
            finalVisibleRows: 0, finalRowsShowingOwnImage: 0)
    }

    /// Seconds since the run was created.
    var elapsedSeconds: Double { Self.seconds(clock.now - start) }

    /// Runs the loop with `strategy` until it settles or a cap is reached.
    ///
    /// `onFinish` is called synchronously on the main queue when the loop ends, before this function resumes:
    /// after the naive run, resuming a task can wait tens of seconds for a thread (libdispatch's pool is full of
    /// blocked downloads), while the main queue still runs.
    func run(_ strategy: any ScrollRowStrategy, onFinish: (@MainActor (Figures) -> Void)? = nil) async -> Figures {
        self.strategy = strategy
        self.onFinish = onFinish
        figures.sampler.start()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            self.continuation = continuation
            let timer = RepeatingTimer(interval: .nanoseconds(16_666_667), queue: .main) { [weak self] in
                MainActor.assumeIsolated { self?.tick() }
            }
            self.timer = timer
            timer.start()
        }
        return figures
    }

    private func tick() {
        guard let strategy, continuation != nil else { return }
        let now = elapsedSeconds
        var phases = FramePhases(startCPU: FramePhases.threadCPUSeconds())
        figures.tickSeconds.append(now)
        let cells = script.visibleRowCount
        if scriptEndSeconds == nil {
            if now >= nextRefreshSeconds, let interval = refreshIntervalSeconds, !script.hasEnded(atSeconds: now) {
                generation += 1
                while nextRefreshSeconds <= now { nextRefreshSeconds += interval }
                phases.measure(\.refresh) {
                    for row in visible { strategy.rebind(row: row, url: urlForRow(row, generation), cell: row % cells) }
                }
            }
            let rows = script.visibleRows(atSeconds: now)
            phases.measure(\.disappear) {
                for row in visible where !rows.contains(row) { strategy.disappear(row: row, cell: row % cells) }
            }
            phases.measure(\.appear) {
                for row in rows where !visible.contains(row) {
                    strategy.appear(row: row, url: urlForRow(row, generation), cell: row % cells)
                }
            }
            visible = rows
            if script.hasEnded(atSeconds: now) { scriptEndSeconds = now }
        }
        phases.measure(\.draw) { for row in visible { strategy.draw(cell: row % cells) } }
        figures.workMilliseconds.append((elapsedSeconds - now) * 1000)
        phases.finish()
        // The measurement's own sampling (procfs reads: ~0.5 ms) comes after the frame's work, not inside it.
        phases.measure(\.sampling) { figures.sampler.sample() }
        figures.phases.append(phases)
        if let end = scriptEndSeconds {
            if strategy.isSettled {
                finish(scriptEnd: end, now: now, timedOut: false)
            } else if now - end > settleCapSeconds || now > totalCapSeconds {
                finish(scriptEnd: end, now: now, timedOut: true)
            }
        } else if now > totalCapSeconds {
            finish(scriptEnd: now, now: now, timedOut: true)
        }
    }

    private func finish(scriptEnd: Double, now: Double, timedOut: Bool) {
        timer?.cancel()
        timer = nil
        figures.scriptEndSeconds = scriptEnd
        figures.finishSeconds = now
        figures.timedOut = timedOut
        if let strategy {
            let cells = script.visibleRowCount
            figures.finalVisibleRows = visible.count
            figures.finalRowsShowingOwnImage =
                visible.filter {
                    strategy.showsOwnImage(cell: $0 % cells, url: urlForRow($0, generation))
                }.count
        }
        strategy = nil
        onFinish?(figures)
        onFinish = nil
        continuation?.resume()
        continuation = nil
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
