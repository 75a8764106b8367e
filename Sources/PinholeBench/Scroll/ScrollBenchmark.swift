import Foundation
import Pinhole
import PinholeCurl
import PinholeTestServer
import PinholeVips

/// `pinhole bench scroll`: the seeds' scroll reproduction. A headless list whose visible window flicks top →
/// bottom → top against a loopback server with latency, rows binding on appear and (for Pinhole) cancelling on
/// disappear, optionally with every row's URL changing every 400 ms; the naive GCD code against Pinhole's
/// ``ImageSlot`` + ``ImagePipeline``, in one process, Pinhole first (the naive run leaves blocked threads).
///
/// Runs on the main actor; the caller must keep the main dispatch queue serviced (an `async` main does).
@MainActor
public struct ScrollBenchmark {
    /// The ways of binding images to rows.
    public enum Strategy: String, Sendable, CaseIterable {
        /// The frame loop with empty rows: a reference for the machine's own scheduling noise.
        case idle
        case naive
        case pinhole
        /// Pinhole with ``ImageSlot``'s generation check switched off (a bench-only switch; the slot then also leaves
        /// its previous request running on a refresh): with refreshes on, the wrong-row measure must count images
        /// here, which proves it can.
        case unguarded
    }

    /// What to run; every property has the default of `pinhole bench scroll`.
    public struct Configuration: Sendable {
        /// In run order: the idle reference, then Pinhole, then naive (whose blocked threads would affect later runs).
        public var strategies: [Strategy] = [.idle, .pinhole, .naive]
        public var rows = 200
        public var visibleRows = 12
        /// Server latency per image, in milliseconds; 250 by default.
        public var latencyMs = 250
        /// Whether every row's URL changes every ``refreshIntervalSeconds`` during the script.
        public var refresh = false
        public var refreshIntervalSeconds = 0.4
        /// The flick's duration in seconds; 7.3 by default.
        public var durationSeconds = 7.3
        /// The naive run's cap in seconds from its start; 60 by default.
        public var naiveCapSeconds = 60.0
        /// The Pinhole run's cap on settling after the script, in seconds; 30 by default.
        public var settleCapSeconds = 30.0
        /// Thumbnail longest side in pixels (a row's pixel size); 64 by default.
        public var thumbnailPixels = 64
        /// Distinct images the server hands out, and their side in pixels.
        public var imageCount = 24
        public var imageSide = 600
        /// The photo corpus; `nil` makes synthetic images.
        public var corpus: String?

        public init() {}
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Makes the images, starts the server, runs every strategy and stops the server.
    ///
    /// - Parameters:
    ///   - log: receives progress lines (for stderr).
    ///   - deliver: when given and the naive strategy runs last, receives every result synchronously on the main
    ///     queue the moment the naive frame loop ends. After the naive run, libdispatch's pool is full of blocked
    ///     downloads and any task (this function's own return included) can wait minutes for a thread, so a
    ///     command line prints from `deliver` and exits.
    /// - Throws: ``PinholeError`` when the images cannot be made; `PinholeTestServer.StartError`.
    public func run(
        log: @Sendable (String) -> Void = { _ in },
        deliver: (@MainActor ([ScrollResult]) -> Void)? = nil
    ) async throws -> [ScrollResult] {
        let images = try await ScrollImageSet.make(
            count: configuration.imageCount, side: configuration.imageSide, corpus: configuration.corpus)
        // Every served image carries its URL's code (row and refresh generation) in its pixels. Every image the
        // script can ask for is encoded now: one encoded on request (about 2 ms on a server thread) would take a
        // core from the main thread it measures (seen as 2–4 ms preemptions of its frame work).
        let coded = CodedImages(squares: images.squares)
        let bound = boundRows()
        for (generation, rows) in bound { try await coded.prepare(rows: rows, generation: generation) }
        let prepared = coded.encodedCount
        log(
            "images: \(images.squares.count) photos of \(images.side)×\(images.side) from \(images.origin), "
                + "served as JPEGs coded with their row and refresh generation")
        let server = try PinholeTestServer()
        defer { server.stop() }
        let latency = Duration.milliseconds(configuration.latencyMs)
        server.route("/warmup", .image(try coded.jpeg(for: ScrollImageCode(row: 0, generation: 0))))
        server.setHandler { request in
            let url = URL(string: "http://server" + request.target)
            guard let code = url.flatMap({ ScrollImageCode(url: $0) }), let jpeg = try? coded.jpeg(for: code) else {
                return nil
            }
            return .image(jpeg, latency: latency)
        }
        // Made before the runs: making a URL (about 10 µs) is the harness's work, not the frame's.
        var urls: [ScrollImageCode: URL] = [:]
        for (generation, rows) in bound {
            for row in rows {
                urls[ScrollImageCode(row: row, generation: generation)] = Self.url(row, generation, server)
            }
        }
        var results: [ScrollResult] = []
        for (index, strategy) in configuration.strategies.enumerated() {
            log("running \(strategy.rawValue)…")
            let isLast = index == configuration.strategies.count - 1
            var finished: (@MainActor (ScrollResult) -> Void)?
            if isLast, strategy == .naive, let deliver {
                let earlier = results
                finished = { result in deliver(earlier + [result]) }
            }
            let result = try await run(strategy, server: server, urls: urls, onFinished: finished)
            results.append(result)
            log(
                "\(strategy.rawValue): \(result.frames) frames, \(result.imagesShown) images shown, "
                    + "timed out: \(result.timedOut)")
            log("\(strategy.rawValue): main actor per frame: \(result.mainActorProfile)")
            log("\(strategy.rawValue): images encoded on request while measured: \(coded.encodedCount - prepared)")
        }
        return results
    }

    /// The script of the flick this configuration describes.
    var script: ScrollScript {
        ScrollScript(
            rowCount: configuration.rows, visibleRowCount: configuration.visibleRows,
            durationSeconds: configuration.durationSeconds)
    }

    /// The rows each URL generation can be bound to: generation 0, every row (the first screen, and every row
    /// without refreshes); with refreshes, generation `g` from `g ×` the refresh interval until the next refresh,
    /// the last one until the end of the run, 0.15 s either side for late ticks.
    func boundRows() -> [(generation: Int, rows: Range<Int>)] {
        let first = [(generation: 0, rows: 0..<configuration.rows)]
        let interval = configuration.refreshIntervalSeconds
        guard configuration.refresh, interval > 0 else { return first }
        // Refreshes happen while the script runs: generation g starts at g × interval < duration.
        let last = Int((configuration.durationSeconds / interval).rounded(.up)) - 1
        guard last >= 1 else { return first }
        let script = script
        return first
            + (1...last).map { generation in
                let end = generation == last ? Double.infinity : Double(generation + 1) * interval + 0.15
                let start = Double(generation) * interval - 0.15
                return (generation, script.visibleRows(fromSeconds: start, throughSeconds: end))
            }
    }

    /// One strategy against a running server.
    ///
    /// `onFinished`, when given, receives the result synchronously on the main queue as soon as the frame loop
    /// ends (without the 2 s wait for the server's abort counts).
    func run(
        _ strategy: Strategy, server: PinholeTestServer, urls: [ScrollImageCode: URL],
        onFinished: (@MainActor (ScrollResult) -> Void)? = nil
    ) async throws -> ScrollResult {
        let script = script
        let downloads = DownloadLog()
        let cells = script.visibleRowCount
        let rowStrategy: any ScrollRowStrategy
        let totalCap: Double
        var run: ScrollRun?
        let ledger = ScrollLedger(cellCount: cells) { run?.elapsedSeconds ?? 0 }
        switch strategy {
        case .idle:
            rowStrategy = IdleRows()
            totalCap = configuration.durationSeconds + configuration.settleCapSeconds
        case .naive:
            await Self.warmUpNaive(server.url("/warmup"))
            rowStrategy = NaiveRows(cellCount: cells, ledger: ledger, downloads: downloads)
            totalCap = configuration.naiveCapSeconds
        case .pinhole, .unguarded:
            let pipeline = makePipeline(downloads: downloads)
            _ = try? await pipeline.image(for: ImageRequest(url: server.url("/warmup"), maxPixelSize: 8))
            rowStrategy = PinholeRows(
                pipeline: pipeline, cellCount: cells, thumbnailPixels: configuration.thumbnailPixels, ledger: ledger,
                unguarded: strategy == .unguarded)
            totalCap = configuration.durationSeconds + configuration.settleCapSeconds
        }
        // The warm-up's request must have ended in the server's books too before they are cleared: a client that has
        // its bytes may be ahead of the server's count, and a completion counted after the reset made 5 of 4 (CI's
        // stress step).
        _ = await Self.settledStats(of: server, waitForAborts: true)
        server.resetStats()
        let refresh = configuration.refresh ? configuration.refreshIntervalSeconds : nil
        // The naive run is capped only by its total time; Pinhole by its settling time after the script.
        let settleCap = strategy == .naive ? configuration.naiveCapSeconds : configuration.settleCapSeconds
        let current = ScrollRun(
            script: script, refreshIntervalSeconds: refresh, settleCapSeconds: settleCap,
            totalCapSeconds: totalCap
        ) { row, generation in
            urls[ScrollImageCode(row: row, generation: generation)] ?? Self.url(row, generation, server)
        }
        run = current
        let figures = await current.run(rowStrategy) { [self] figures in
            onFinished?(
                makeResult(strategy, figures: figures, ledger: ledger, downloads: downloads, stats: server.stats))
        }
        let stats = await Self.settledStats(of: server, waitForAborts: !figures.timedOut)
        return makeResult(strategy, figures: figures, ledger: ledger, downloads: downloads, stats: stats)
    }

    /// The URL of `row` at refresh `generation`.
    static func url(_ row: Int, _ generation: Int, _ server: PinholeTestServer) -> URL {
        server.url("/img/\(row)?v=\(generation)")
    }

    /// The pipeline of the Pinhole strategy: libvips thumbnails on ``WorkerThreadPool/cpu``, one HTTP loader whose
    /// connection limit covers a screen of rows, and a memory cache sized for a list of small thumbnails.
    func makePipeline(downloads: DownloadLog) -> ImagePipeline {
        var http = HTTPDataLoader.Configuration()
        http.maxConnectionsPerHost = configuration.visibleRows + 4
        let loader = TrackingDataLoader(base: HTTPDataLoader(configuration: http), log: downloads)
        var pipelineConfiguration = ImagePipeline.Configuration(
            decoder: VipsDecoder(pool: .cpu), dataLoader: SchemeRoutingDataLoader(http: loader))
        pipelineConfiguration.networkConcurrencyLimit = configuration.visibleRows + 4
        // 2 MB: about 170 thumbnails of 64×64 RGB, several screens of rows.
        pipelineConfiguration.memoryCache = MemoryCache(configuration: .init(costLimit: 2_000_000))
        return ImagePipeline(configuration: pipelineConfiguration)
    }

    /// One naive download first, so both strategies start with their networking threads running.
    static func warmUpNaive(_ url: URL) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                // Deliberately blocking, as the naive strategy is (see NaiveRows).
                _ = try? Data(contentsOf: url)
                continuation.resume()
            }
        }
    }

    /// The server's counts once every started request has ended (at most 10 s of waiting, for a loaded machine; none
    /// after a cap).
    static func settledStats(of server: PinholeTestServer, waitForAborts: Bool) async -> Stats {
        guard waitForAborts else { return server.stats }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let stats = server.stats
            if stats.requestsStarted == stats.requestsCompleted + stats.requestsAborted { return stats }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return server.stats
    }
}
