import Foundation
import Pinhole
import PinholeTestServer
import PinholeVips

/// `pinhole bench download`: the HTTP transport alone. 1,000 small images (distinct URLs) from a loopback
/// ``PinholeTestServer``, 6 at a time, through a ``DataLoading`` loader: wall time and CPU per request, and
/// the peak thread count over the baseline.
///
/// CPU is this process's (`getrusage`) less the in-process server's own threads (`pinhole-srv-*`, which a real
/// client would not have), so it is the client's: the loader, its thread(s) and the 6 tasks waiting on it.
/// Threads are sampled every 5 ms during each transport's warm-up and first run, transports one after the
/// other in the configured order (libcurl first: URLSession leaves dispatch threads behind), each from a baseline
/// taken before its loader exists; they are not sampled during the timed runs (the sampler's reads would count
/// as CPU). The timed runs of the transports then alternate, so machine noise falls on both.
public struct DownloadBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// Requests per run; 1,000 by default.
        public var requests = 1000
        /// Requests at once; 6 by default (the pipeline's default network limit).
        public var concurrency = 6
        /// Measured runs per transport (median reported); 5 by default.
        public var runs = 5
        /// The transports, in the order of each round.
        public var transports: [BenchTransport] = BenchTransport.allCases

        public init() {}
    }

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Runs every transport and returns the figures; `log` receives progress lines.
    public func run(log: @Sendable (String) -> Void) async throws -> DownloadBenchmarkResult {
        let server = try PinholeTestServer()
        defer { server.stop() }
        let image = try await VipsEncoder().encode(
            PixelImage(width: 64, height: 48, pixelFormat: .rgb8,
                       pixels: (0..<(64 * 48 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
            options: EncodingOptions(format: .jpeg, quality: 80))
        server.setHandler { request in request.path.hasPrefix("/d/") ? .image(image) : nil }
        var result = DownloadBenchmarkResult(
            requests: configuration.requests, concurrency: configuration.concurrency, imageBytes: image.count)
        // Threads first, one transport at a time, each from a baseline taken before its loader exists (so the
        // threads a transport leaves behind, such as URLSession's dispatch workers, do not count for the next).
        var loaders: [(BenchTransport, any DataLoading)] = []
        let excluded = ["pinhole-srv"]
        for transport in configuration.transports {
            log("\(transport.rawValue): threads (warm-up and one run)")
            let baseline = ProcessStats.threadCount(excludingPrefixes: excluded)
            let peak = PeakSampler { ProcessStats.threadCount(excludingPrefixes: excluded) }
            peak.start()
            let loader = transport.makeLoader()
            _ = try await download(server: server, loader: loader, tag: "warm-\(transport.rawValue)", count: 60)
            _ = try await download(server: server, loader: loader, tag: "threads-\(transport.rawValue)",
                                   count: configuration.requests)
            peak.stop()
            var figures = DownloadBenchmarkResult.Figures()
            figures.baselineThreads = baseline
            figures.peakThreads = peak.peak
            result.figures[transport.rawValue] = figures
            loaders.append((transport, loader))
        }
        // Then time and CPU, the transports' runs alternating.
        for round in 0..<configuration.runs {
            for (transport, loader) in loaders {
                log("\(transport.rawValue): run \(round + 1) of \(configuration.runs)")
                let serverCPU = ProcessStats.cpuSeconds(ofThreadsNamed: "pinhole-srv")
                let cpu = ProcessStats.cpuSeconds()
                let seconds = try await download(
                    server: server, loader: loader, tag: "\(transport.rawValue)-\(round)", count: configuration.requests)
                let clientCPU = (ProcessStats.cpuSeconds() - cpu)
                    - (ProcessStats.cpuSeconds(ofThreadsNamed: "pinhole-srv") - serverCPU)
                let perRequest = 1e6 / Double(configuration.requests)
                result.figures[transport.rawValue]?.microsecondsPerRequest.append(seconds * perRequest)
                result.figures[transport.rawValue]?.cpuMicrosecondsPerRequest.append(clientCPU * perRequest)
            }
        }
        result.cores = ProcessInfo.processInfo.activeProcessorCount
        return result
    }

    /// Downloads `count` distinct URLs, `concurrency` at a time; returns the wall time in seconds.
    private func download(server: PinholeTestServer, loader: any DataLoading, tag: String, count: Int) async throws
        -> Double
    {
        let width = configuration.concurrency
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Int.self) { group in
            var next = 0
            func add() {
                let url = server.url("/d/\(tag)/\(next).jpg")
                next += 1
                group.addTask { try await loader.loadData(for: DataRequest(url: url)).data.count }
            }
            while next < min(width, count) { add() }
            while let bytes = try await group.next() {
                blackHole(bytes)
                if next < count { add() }
            }
        }
        return PipelineBenchmark.seconds(ContinuousClock.now - start)
    }
}
