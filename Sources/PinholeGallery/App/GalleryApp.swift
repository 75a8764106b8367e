public import Foundation
import Glibc
public import Pinhole
import PinholeShared
import PinholeVips

/// `pinhole gallery`: the feed screen in a terminal, driven by a 60 Hz timer on the main queue.
///
/// Each tick (a ``RepeatingTimer`` on `DispatchQueue.main`, so the loop keeps its rate while Swift's
/// cooperative pool is busy) plays at most one scripted key, refreshes the status line every 15 frames, and —
/// only when something changed — renders the ``ScreenState`` with ``ScreenRenderer`` and writes the lines that
/// differ from the previous frame. Keys come from a reader thread; `SIGWINCH` resizes; `SIGINT`/`SIGTERM` quit
/// (status 130/143). The terminal is restored on every way out.
@MainActor
public final class GalleryApp {
    /// How to run.
    public struct Options: Sendable {
        /// A JSON Feed path or URL.
        public var feed: String
        /// Keys to replay; `nil` for none.
        public var script: KeyScript?
        /// Where to write ``GalleryStats`` at exit; `nil` for nowhere.
        public var statsJSON: URL?
        /// The nice value (0…19) of the decoding threads, so frames win the CPU over decodes; 0 (unchanged) by
        /// default. On the shared 2-core bench machine 10 and 19 made no measurable difference to frame times
        /// and showed fewer thumbnails (decodes lost the CPU to other processes), so it is opt-in.
        public var decodeNice: Int
        /// The graphics mode; `nil` (default) detects the best one (``GraphicsDetection/mode(environment:replies:)``).
        public var graphics: GraphicsMode?
        /// The layout at start; the list by default (`g` switches).
        public var layout: LayoutMode
        /// The environment (locale, XDG directories, terminal, `COLUMNS`/`LINES` when not on a terminal).
        public var environment: [String: String]
        /// The diagnostics log (libvips' warnings, one line each, with their time): standard error goes to this
        /// file, appended to, while the gallery runs; it must be a regular file (or not exist yet) and not a
        /// symbolic link. `nil` (default) for `$TMPDIR/pinhole-gallery.log` while the UI owns the terminal, and
        /// standard error as it is otherwise. Warnings never go to the screen, where they read as errors.
        public var log: URL?
        /// Where images are asked for (``FeedScreenModel/thumbnailURL``); `nil` (default) loads each URL itself.
        public var thumbnailURL: (@Sendable (_ source: URL, _ box: ThumbnailOptions) -> URL?)?

        public init(
            feed: String, script: KeyScript? = nil, statsJSON: URL? = nil, decodeNice: Int = 0,
            graphics: GraphicsMode? = nil, layout: LayoutMode = .list,
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) {
            self.feed = feed
            self.script = script
            self.statsJSON = statsJSON
            self.decodeNice = decodeNice
            self.graphics = graphics
            self.layout = layout
            self.environment = environment
        }
    }

    /// The frame interval: 1/60 s.
    public static let frameInterval: Duration = .nanoseconds(16_666_667)

    let model: FeedScreenModel
    private let clock = ContinuousClock()
    private var player: KeyScriptPlayer?
    private var size: TerminalSize
    private let tracksTerminalSize: Bool
    private var differ: FrameDiffer
    private(set) var stats = FrameStats()
    /// Frame times by what was on screen at the tick (``FeedScreenModel/viewName``).
    private(set) var viewStats: [String: FrameStats] = [:]
    private var framesDrawn = 0
    private var framesDeferred = 0
    private var drawPending = false
    let writer = TerminalWriter()
    private var frameNumber = 0
    private var spinnerFrame = 0
    private var status = ""
    private var nextDue: ContinuousClock.Instant
    private var timer: RepeatingTimer?
    private var signalSources: [any DispatchSourceSignal] = []
    private let sampler: ProcessMonitor
    private var continuation: CheckedContinuation<Int32, Never>?
    private var exitStatus: Int32?

    init(model: FeedScreenModel, script: KeyScript?, size: TerminalSize, tracksTerminalSize: Bool, decodeNice: Int) {
        self.model = model
        self.sampler = ProcessMonitor(priority: decodeNice > 0 ? DecodeThreadPriority(nice: Int32(decodeNice)) : nil)
        self.player = script.map(KeyScriptPlayer.init)
        self.size = size
        self.tracksTerminalSize = tracksTerminalSize
        self.differ = FrameDiffer(mode: model.renderer.mode)
        self.nextDue = clock.now + Self.frameInterval
    }

    // MARK: Lifecycle

    /// Starts the timer, the signal sources and (when `readsKeys`) the keyboard thread, then waits for quit.
    func run(readsKeys: Bool) async -> Int32 {
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            watch(signal) { app in app.finish(status) }
        }
        watch(SIGWINCH) { app in app.terminalResized() }
        if readsKeys {
            KeyboardReader.start { [weak self] keys in self?.press(keys) }
        }
        let timer = RepeatingTimer(interval: Self.frameInterval, queue: .main, leeway: .microseconds(500)) {
            [weak self] in MainActor.assumeIsolated { self?.tick() }
        }
        self.timer = timer
        nextDue = clock.now + Self.frameInterval
        timer.start()
        return await withCheckedContinuation { continuation in
            if let exitStatus {
                continuation.resume(returning: exitStatus)
            } else {
                self.continuation = continuation
            }
        }
    }

    private func watch(_ signal: Int32, _ action: @escaping @MainActor (GalleryApp) -> Void) {
        _ = Glibc.signal(signal, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signal, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                action(self)
            }
        }
        source.resume()
        signalSources.append(source)
    }

    /// Ends the run with `status` (once).
    func finish(_ status: Int32) {
        guard exitStatus == nil else { return }
        exitStatus = status
        timer?.cancel()
        for source in signalSources { source.cancel() }
        sampler.stop()
        continuation?.resume(returning: status)
        continuation = nil
    }

    // MARK: Frames

    private func press(_ keys: [Key]) {
        for key in keys {
            if key == .quit { return finish(0) }
            model.handle(key)
        }
    }

    private func terminalResized() {
        guard tracksTerminalSize, let newSize = TerminalSession.size() else { return }
        let cell = GraphicsDetection.cellPixelSize(
            replies: nil, windowPixels: TerminalSession.windowPixels(), size: newSize)
        guard newSize != size || (cell != nil && cell != model.layout.cellPixelSize) else { return }
        size = newSize
        differ.invalidate()
        model.resize(to: newSize, cellPixelSize: cell)
        model.invalidate()
    }

    private func tick() {
        guard exitStatus == nil else { return }
        let start = clock.now
        let due = nextDue
        nextDue = due + Self.frameInterval
        while nextDue <= start { nextDue += Self.frameInterval }
        frameNumber += 1

        if var player {
            let key = player.next(now: start, isSettled: model.isSettled)
            self.player = player
            if let key {
                if key == .quit { return finish(0) }
                model.handle(key)
            }
        }
        // Every animating slot shows the frame due now (one clock for all; cheap when none animates).
        let ticker = model.animationTicker
        if let deadline = ticker.nextDeadline, deadline <= clock.now { ticker.tick(at: start) }
        var mustDraw = model.needsDisplay || drawPending
        if frameNumber % 15 == 1 {
            let newStatus = statusLine()
            if newStatus != status {
                status = newStatus
                mustDraw = true
            }
        }
        if model.phase == .loading || model.phase == .idle, frameNumber % 5 == 0 {
            spinnerFrame += 1
            mustDraw = true
        }
        if frameNumber % 30 == 0 {
            let warnings = Vips.drainWarnings()
            if !warnings.isEmpty { Self.writeDiagnostics(warnings.map { "libvips: \($0)" }) }
        }
        if mustDraw { draw() }
        let end = clock.now
        let frame = max(0, Self.milliseconds(end - due))
        let work = Self.milliseconds(end - start)
        stats.record(milliseconds: frame, workMilliseconds: work)
        viewStats[model.viewName, default: FrameStats()].record(milliseconds: frame, workMilliseconds: work)
    }

    /// User + system CPU time of the process so far, in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// Draws the frame a busy terminal made the loop defer, or a change not drawn yet, once the loop has ended
    /// and the writer is idle: the last screen (what a script's `ready` saw) reaches the terminal before exit.
    func drawPendingFrame() {
        if drawPending || model.needsDisplay { draw() }
    }

    /// Renders and hands the changed lines to the writer; while the terminal is still taking the previous
    /// frame, defers (the main actor never waits for the terminal).
    private func draw() {
        guard !writer.isBusy else {
            drawPending = true
            framesDeferred += 1
            return
        }
        drawPending = false
        let state = model.screenState(status: status, spinnerFrame: spinnerFrame)
        let output = differ.diff(ScreenRenderer.frame(state, layout: model.layout))
        model.didDisplay()
        guard !output.isEmpty else { return }
        writer.write(output)
        framesDrawn += 1
    }

    /// `p50 0.4ms p99 1.2ms · hitches 0 · hangs 0 · threads 17 · in flight 6+3 · mem hits 120 · shown 45`.
    private func statusLine() -> String {
        let metrics = model.pipeline.metrics
        let network = model.pipeline.networkQueueCounts
        let sample = sampler.sample
        func ms(_ value: Double) -> String { String(format: "%.1fms", value) }
        return "\(model.renderer.mode) · frame p50 \(ms(stats.recentPercentile(0.5)))"
            + " p99 \(ms(stats.recentPercentile(0.99)))"
            + " · hitches \(stats.hitches) · hangs \(stats.hangs) · threads \(sample.threads)"
            + " · in flight \(network.running)+\(network.waiting) · mem hits \(metrics.memoryHits)"
            + " · shown \(model.imagesShown)"
    }

    /// The figures of the run for `--stats-json`.
    func summary(seconds: Double, exitStatus: Int32) -> GalleryStats {
        let metrics = model.pipeline.metrics
        let sample = sampler.sample
        return GalleryStats(
            frameP50Ms: stats.percentile(0.5), frameP99Ms: stats.percentile(0.99), frameMaxMs: stats.maximum,
            workP50Ms: FrameStats.percentile(stats.workSamples, 0.5),
            workP99Ms: FrameStats.percentile(stats.workSamples, 0.99),
            workMaxMs: stats.workSamples.max() ?? 0,
            frames: stats.samples.count, framesDrawn: framesDrawn, framesDeferred: framesDeferred,
            hitches: stats.hitches, hangs: stats.hangs,
            peakThreads: sample.peakThreads, peakRSSBytes: sample.peakResidentBytes,
            imagesShown: model.imagesShown, memoryHits: metrics.memoryHits,
            requests: metrics.requests,
            downloadsStarted: metrics.downloadsStarted, downloadsCompleted: metrics.downloadsCompleted,
            downloadsCancelled: metrics.downloadsCancelled, decodes: metrics.decodes, feedItems: model.rows.count,
            cpuSeconds: Self.cpuSeconds(), seconds: seconds, exitStatus: exitStatus,
            mode: model.renderer.mode.rawValue, cellPixelWidth: model.layout.cellPixelSize.width,
            cellPixelHeight: model.layout.cellPixelSize.height, fullViewsShown: model.fullViewsShown,
            views: viewStats.mapValues(GalleryStats.ViewFigures.init), animation: animationFigures())
    }

    /// The animation figures of the run, or `nil` when nothing played.
    private func animationFigures() -> GalleryStats.AnimationFigures? {
        let ticker = model.animationTicker.metrics
        guard ticker.ticks > 0 else { return nil }
        let metrics = model.pipeline.metrics
        return GalleryStats.AnimationFigures(
            ticks: ticker.ticks, framesShown: ticker.framesShown, framesSkipped: ticker.framesSkipped,
            framesDecoded: metrics.framesDecoded, framesReused: metrics.framesReused,
            framesEvicted: metrics.framesEvicted,
            tickMeanMs: Self.milliseconds(ticker.tickTime) / Double(ticker.ticks),
            tickMaxMs: Self.milliseconds(ticker.maxTickTime), peakFrameBytes: model.pipeline.peakFrameBytes)
    }
}
