import Foundation
import Pinhole
import PinholeCurl
import PinholeShared
import PinholeTestServer
import PinholeVips

/// The pipeline's own costs (issue 3's speed goals), each against a reference measured in the same run:
/// - a memory-cache hit (`cachedImage(for:)` and the async `image(for:)`), vs a locked dictionary lookup;
/// - the overhead per request with an instant loader and decoder, vs calling them directly;
/// - 1,000 identical concurrent requests (how many loads);
/// - peak threads while 1,000 requests wait on a 250 ms loopback server, vs the baseline.
public struct PipelineBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// Measured rounds (median reported); 7 by default.
        public var runs = 7
        /// Lookups per round for the hit benchmark; 200,000 by default.
        public var hitsPerRun = 200_000
        /// Requests per round for the overhead benchmark; 5,000 by default.
        public var requestsPerRun = 5_000
        /// Requests that wait on the slow server; 1,000 by default.
        public var waitingRequests = 1_000
        /// The slow server's latency; 250 ms by default.
        public var serverLatency: Duration = .milliseconds(250)
        /// Whether the hit and overhead pipelines collect per-request metrics
        /// (`ImagePipeline.Configuration.collectsTaskMetrics`), to measure what they cost; `false` by default.
        public var collectsTaskMetrics = false

        public init() {}
    }

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Runs every part and returns the figures; `log` receives progress lines.
    public func run(log: @Sendable (String) -> Void) async throws -> PipelineBenchmarkResult {
        var result = PipelineBenchmarkResult()
        log("memory-cache hits…")
        (result.hitNanoseconds, result.asyncHitNanoseconds, result.dictionaryLookupNanoseconds) =
            try await measureHits()
        log("pipeline overhead per request…")
        (result.requestMicroseconds, result.directMicroseconds) = try await measureOverhead()
        result.concurrentRequestMicroseconds = try await measureConcurrentOverhead()
        log("1,000 identical concurrent requests…")
        (result.identicalRequests, result.identicalLoads, result.identicalSeconds) = try await measureIdentical()
        log("threads while \(configuration.waitingRequests) requests wait on a \(configuration.serverLatency) server…")
        (result.baselineThreads, result.peakThreads, result.waitingSeconds, result.waitingCPUSeconds) =
            try await measureWaitingThreads()
        result.waitingRequests = configuration.waitingRequests
        result.cores = ProcessInfo.processInfo.activeProcessorCount
        return result
    }

    private func makePipeline(memoryCache: Bool) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(decoder: InstantDecoder(), dataLoader: InstantDataLoader())
        if !memoryCache { configuration.memoryCache = nil }
        configuration.collectsTaskMetrics = self.configuration.collectsTaskMetrics
        return ImagePipeline(configuration: configuration)
    }

    private func measureHits() async throws -> (Samples, Samples, Samples) {
        try await measureHits(on: makePipeline(memoryCache: true))
    }

    /// The hit figures on `pipeline` (the synchronous and the async lookup, the locked dictionary).
    ///
    /// - Throws: ``BenchmarkCheckFailure`` when a lookup that was to hit the memory cache missed (it would have
    ///   measured a miss or a load).
    func measureHits(on pipeline: ImagePipeline) async throws -> (Samples, Samples, Samples) {
        let request = ImageRequest(url: URL(string: "https://bench.example/hit.jpg")!, maxPixelSize: 64)
        _ = try await pipeline.image(for: request)
        let reference = Locked<[ImageKey: DecodedImage]>([request.imageKey: InstantDecoder.image])
        let key = request.imageKey
        var sync = Samples()
        var async = Samples()
        var dictionary = Samples()
        let count = configuration.hitsPerRun
        for _ in 0...configuration.runs {  // the first round warms up and is dropped below
            var misses = 0
            sync.append(
                Self.nanoseconds(per: count) {
                    for _ in 0..<count {
                        if let hit = pipeline.cachedImage(for: request) { blackHole(hit) } else { misses += 1 }
                    }
                })
            dictionary.append(
                Self.nanoseconds(per: count) { for _ in 0..<count { blackHole(reference.withLock { $0[key] }) } })
            let start = ContinuousClock.now
            for _ in 0..<count / 10 {
                let response = try await pipeline.image(for: request)
                if response.source != .memoryCache { misses += 1 }
                blackHole(response)
            }
            async.append(Self.seconds(ContinuousClock.now - start) * 1e9 / Double(count / 10))
            guard misses == 0 else {
                throw BenchmarkCheckFailure("memory-cache hits: \(misses) lookups of \(request.url) missed the cache")
            }
        }
        return (sync.droppingFirst(), async.droppingFirst(), dictionary.droppingFirst())
    }

    private func measureOverhead() async throws -> (Samples, Samples) {
        let count = configuration.requestsPerRun
        let loader = InstantDataLoader()
        let decoder = InstantDecoder()
        var viaPipeline = Samples()
        var direct = Samples()
        for round in 0...configuration.runs {
            let pipeline = makePipeline(memoryCache: false)
            let requests = (0..<count).map {
                ImageRequest(url: URL(string: "https://bench.example/\(round)/\($0).jpg")!, maxPixelSize: 64)
            }
            var start = ContinuousClock.now
            for request in requests { blackHole(try await pipeline.image(for: request)) }
            viaPipeline.append(Self.seconds(ContinuousClock.now - start) * 1e6 / Double(count))
            start = ContinuousClock.now
            for request in requests {
                let data = try await loader.loadData(for: DataRequest(url: request.url))
                blackHole(try await decoder.decode(data.data, options: DecodingOptions(thumbnail: request.thumbnail)))
            }
            direct.append(Self.seconds(ContinuousClock.now - start) * 1e6 / Double(count))
        }
        return (viaPipeline.droppingFirst(), direct.droppingFirst())
    }

    /// The same requests all at once (as a list screen asks): wall time per request, amortised.
    private func measureConcurrentOverhead() async throws -> Samples {
        let count = configuration.requestsPerRun
        var samples = Samples()
        for round in 0...configuration.runs {
            let pipeline = makePipeline(memoryCache: false)
            let requests = (0..<count).map {
                ImageRequest(url: URL(string: "https://bench.example/c\(round)/\($0).jpg")!, maxPixelSize: 64)
            }
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for request in requests { group.addTask { blackHole(try await pipeline.image(for: request)) } }
                try await group.waitForAll()
            }
            samples.append(Self.seconds(ContinuousClock.now - start) * 1e6 / Double(count))
        }
        return samples.droppingFirst()
    }

    private func measureIdentical() async throws -> (Int, Int, Double) {
        // The load takes 200 ms, so the 1,000 callers all arrive while it runs (as rows of a list would).
        let counter = CountingDataLoader(delay: .milliseconds(200))
        var configuration = ImagePipeline.Configuration(decoder: InstantDecoder(), dataLoader: counter)
        configuration.memoryCache = nil
        let pipeline = ImagePipeline(configuration: configuration)
        let request = ImageRequest(url: URL(string: "https://bench.example/same.jpg")!, maxPixelSize: 64)
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<1000 { group.addTask { blackHole(try await pipeline.image(for: request)) } }
            try await group.waitForAll()
        }
        return (1000, counter.loads, Self.seconds(ContinuousClock.now - start))
    }

    /// Threads before and at the peak, wall seconds, and the client's CPU seconds (the process's less the
    /// in-process server's threads' and the thread sampler's).
    private func measureWaitingThreads() async throws -> (Int, Int, Double, Double) {
        let server = try PinholeTestServer()
        defer { server.stop() }
        let jpeg = try await VipsEncoder().encode(
            PixelImage(width: 8, height: 8, pixelFormat: .rgb8, pixels: [UInt8](repeating: 128, count: 192)),
            options: EncodingOptions(format: .jpeg))
        let latency = configuration.serverLatency
        server.setHandler { _ in .image(jpeg, latency: latency) }
        let pipeline = ImagePipeline(
            configuration: .init(decoder: VipsDecoder(), dataLoader: SchemeRoutingDataLoader(http: HTTPDataLoader())))
        // Warm up: the decoder's and loader's threads exist before the baseline is taken.
        _ = try await pipeline.image(for: ImageRequest(url: server.url("/warm.jpg"), maxPixelSize: 8))
        let serverThreads = ["pinhole-srv"]
        let baseline = ProcessStats.threadCount(excludingPrefixes: serverThreads)
        let peak = PeakSampler { ProcessStats.threadCount(excludingPrefixes: serverThreads) }
        peak.start()
        let start = ContinuousClock.now
        let (cpu, serverCPU) = (ProcessStats.cpuSeconds(), ProcessStats.cpuSeconds(ofThreadsNamed: "pinhole-srv"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<configuration.waitingRequests {
                let request = ImageRequest(url: server.url("/w/\(index).jpg"), maxPixelSize: 8)
                group.addTask { blackHole(try await pipeline.image(for: request)) }
            }
            try await group.waitForAll()
        }
        let seconds = Self.seconds(ContinuousClock.now - start)
        peak.stop()
        let clientCPU =
            (ProcessStats.cpuSeconds() - cpu)
            - (ProcessStats.cpuSeconds(ofThreadsNamed: "pinhole-srv") - serverCPU) - peak.cpuSeconds
        return (baseline, peak.peak, seconds, clientCPU)
    }

    static func nanoseconds(per count: Int, _ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        body()
        return seconds(ContinuousClock.now - start) * 1e9 / Double(count)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
