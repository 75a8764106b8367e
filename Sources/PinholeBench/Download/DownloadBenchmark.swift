import Foundation
import Pinhole
import PinholeCurl
import PinholeShared
import PinholeTestServer
import PinholeVips

/// `pinhole bench download`: the HTTP transport alone. 1,000 small images (distinct URLs) from a loopback
/// ``PinholeTestServer``, 6 at a time, through one ``HTTPDataLoader``: wall time and CPU per request, and the
/// peak thread count over the baseline.
///
/// CPU is this process's (`getrusage`) less the in-process server's own threads (`pinhole-srv-*`, which a real
/// client would not have), so it is the client's: the loader, its thread and the 6 tasks waiting on it.
/// Threads are sampled every 5 ms during the warm-up and a first run, from a baseline taken before the loader
/// exists; not during the timed runs (the sampler's reads would count as CPU).
///
/// The URLSession loader that libcurl replaced was measured side by side with this benchmark at commit
/// a5d7a09 (`pinhole bench download`, both transports in one process); BENCHMARKS.md has the figures.
public struct DownloadBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// Requests per run; 1,000 by default.
        public var requests = 1000
        /// Requests at once; 6 by default (the pipeline's default network limit).
        public var concurrency = 6
        /// Measured runs (median reported); 5 by default.
        public var runs = 5

        public init() {}
    }

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Runs the benchmark and returns the figures; `log` receives progress lines.
    public func run(log: @Sendable (String) -> Void) async throws -> DownloadBenchmarkResult {
        let server = try PinholeTestServer()
        defer { server.stop() }
        let image = try await VipsEncoder().encode(
            PixelImage(
                width: 64, height: 48, pixelFormat: .rgb8,
                pixels: (0..<(64 * 48 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
            options: EncodingOptions(format: .jpeg, quality: 80))
        server.setHandler { request in request.path.hasPrefix("/d/") ? .image(image) : nil }
        var result = DownloadBenchmarkResult(
            requests: configuration.requests, concurrency: configuration.concurrency, imageBytes: image.count)

        log("threads (warm-up and one run)")
        let excluded = ["pinhole-srv"]
        result.baselineThreads = ProcessStats.threadCount(excludingPrefixes: excluded)
        let peak = PeakSampler { ProcessStats.threadCount(excludingPrefixes: excluded) }
        peak.start()
        let loader = HTTPDataLoader()
        _ = try await download(server: server, loader: loader, tag: "warm", count: 60, expectedBytes: image.count)
        _ = try await download(
            server: server, loader: loader, tag: "threads", count: configuration.requests,
            expectedBytes: image.count)
        peak.stop()
        result.peakThreads = peak.peak

        for round in 0..<configuration.runs {
            log("run \(round + 1) of \(configuration.runs)")
            let serverCPU = ProcessStats.cpuSeconds(ofThreadsNamed: "pinhole-srv")
            let cpu = ProcessStats.cpuSeconds()
            let seconds = try await download(
                server: server, loader: loader, tag: "\(round)", count: configuration.requests,
                expectedBytes: image.count)
            let clientCPU =
                (ProcessStats.cpuSeconds() - cpu)
                - (ProcessStats.cpuSeconds(ofThreadsNamed: "pinhole-srv") - serverCPU)
            let perRequest = 1e6 / Double(configuration.requests)
            result.microsecondsPerRequest.append(seconds * perRequest)
            result.cpuMicrosecondsPerRequest.append(clientCPU * perRequest)
        }
        result.cores = ProcessInfo.processInfo.activeProcessorCount
        return result
    }

    /// Downloads `count` distinct URLs (`/d/<tag>/<n>.jpg` on `server`), `concurrency` at a time; returns the wall
    /// time in seconds.
    ///
    /// - Throws: ``BenchmarkCheckFailure`` when a body is not `expectedBytes` long, or fewer than `count` loads
    ///   finished (the figures would be those of other work); what the loader throws.
    func download(
        server: PinholeTestServer, loader: any DataLoading, tag: String, count: Int, expectedBytes: Int
    ) async throws -> Double {
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
            var finished = 0
            while let bytes = try await group.next() {
                guard bytes == expectedBytes else {
                    throw BenchmarkCheckFailure("download \(tag): a body of \(bytes) bytes, \(expectedBytes) served")
                }
                finished += 1
                if next < count { add() }
            }
            guard finished == count else {
                throw BenchmarkCheckFailure("download \(tag): \(finished) of \(count) loads finished")
            }
        }
        return PipelineBenchmark.seconds(ContinuousClock.now - start)
    }
}
