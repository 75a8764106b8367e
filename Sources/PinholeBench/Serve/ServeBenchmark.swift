import Foundation
import Pinhole

/// `pinhole bench serve`: the built `pinhole serve` as a child process in front of a loopback nginx origin holding
/// a 2K-class corpus, driven by `wrk` at several connection counts for 512 px JPEG and negotiated WebP, cold
/// (every source URL new) and steady (cached); the in-process `pinhole thumbnail` rate for the same work; with
/// ``Configuration/compare``, nginx's image_filter on the same files; and a hot-key round (many requests for a few
/// uncached sources on a fresh server).
public struct ServeBenchmark: Sendable {
    public struct Configuration: Sendable {
        /// The photo corpus whose JPEGs are resized to 2048 px.
        public var corpus: String
        /// The `pinhole` executable measured (its `serve` and `thumbnail` commands).
        public var pinholeExecutable: String
        /// Arguments that give the server its key (`--key HEX --salt HEX`), or `["--allow-unsigned"]`.
        public var signingArguments: [String]
        /// The signed form of a processing path (`/rs:…/plain/…` → `/SIGNATURE/rs:…`).
        public var sign: @Sendable (String) -> String
        /// Whether ``sign`` makes real signatures (for the report).
        public var signed: Bool
        /// Seconds of each timed wrk run; 10 by default.
        public var seconds = 10
        /// Connection counts; 2, 8 and 64 by default.
        public var connections = [2, 8, 64]
        /// Whether nginx image_filter is measured too.
        public var compare = false
        /// Runs of the in-process reference per format (the median is used); 3 by default.
        public var inProcessRuns = 3
        /// The hot-key round: requests, sources and connections.
        public var hotRequests = 500
        public var hotSources = 10
        public var hotConnections = 64
        /// At most this many corpus JPEGs (all by default).
        public var fileLimit: Int?
        /// Cores: the server's `--concurrency`, nginx's workers, the reference's `--jobs`, wrk's threads.
        public var cores = ProcessInfo.processInfo.activeProcessorCount

        public init(
            corpus: String, pinholeExecutable: String, signingArguments: [String], signed: Bool,
            sign: @escaping @Sendable (String) -> String
        ) {
            self.corpus = corpus
            self.pinholeExecutable = pinholeExecutable
            self.signingArguments = signingArguments
            self.signed = signed
            self.sign = sign
        }
    }

    /// Thumbnail box and JPEG quality of every run (pinhole's default quality, and nginx's set to it).
    static let side = 512
    static let quality = 80

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Runs everything; `progress` receives a line per step.
    ///
    /// - Throws: ``BenchServeError`` when a tool is missing or a server does not start or answer.
    public func run(progress: @escaping @Sendable (String) -> Void) async throws -> ServeBenchmarkResult {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-bench-serve-\(UUID())")
        defer { try? FileManager.default.removeItem(at: work) }
        let loadBefore = Self.loadAverage()
        progress("making the 2K corpus from \(configuration.corpus)")
        let corpus = try await ServeCorpus.make(
            from: configuration.corpus, in: work.appendingPathComponent("corpus"), limit: configuration.fileLimit)
        progress("\(corpus.files.count) files, \(corpus.meanBytes / 1000) kB mean")
        var inProcess: [InProcessReference] = []
        for format in ServeFormat.allCases {
            inProcess.append(try await inProcessReference(format, corpus: corpus, work: work))
            progress(
                "in-process \(format.rawValue): \(Self.rounded(inProcess.last?.imagesPerSecond.median ?? 0)) images/s")
        }
        let nginx = try await NginxServer(
            root: corpus.directory, probeFile: corpus.files[0], prefix: work.appendingPathComponent("nginx"),
            workers: configuration.cores, quality: Self.quality)
        var runs: [ServeRun] = []
        var hotKeys: HotKeyResult?
        do {
            let context = RunContext(corpus: corpus, nginx: nginx, work: work)
            for format in ServeFormat.allCases {
                for pass in [ServePass.cold, .steady] {
                    for connections in configuration.connections {
                        let run = try await pinholeRun(format, pass, connections: connections, context: context)
                        progress(Self.line(run))
                        runs.append(run)
                    }
                }
            }
            if configuration.compare {
                for connections in configuration.connections {
                    let run = try await nginxRun(connections: connections, context: context)
                    progress(Self.line(run))
                    runs.append(run)
                }
            }
            let coldCPU =
                runs.first {
                    $0.server == .pinhole && $0.pass == .cold && $0.format == .jpeg
                        && $0.connections == configuration.hotConnections
                }?.cpuSecondsPerRequest ?? 0
            hotKeys = try await hotKeyRun(coldCPUSecondsPerRequest: coldCPU, context: context)
            progress("hot keys: origin saw \(hotKeys?.originRequests ?? 0) requests")
        } catch {
            await nginx.stop()
            throw error
        }
        await nginx.stop()
        var result = ServeBenchmarkResult(
            cores: configuration.cores, loadAverageBefore: loadBefore, loadAverageAfter: Self.loadAverage(),
            corpusFiles: corpus.files.count, corpusLongestSide: ServeCorpus.longestSide,
            corpusMeanBytes: corpus.meanBytes, secondsPerRun: configuration.seconds, signed: configuration.signed,
            inProcess: inProcess, runs: runs, hotKeys: hotKeys)
        result.targets = result.evaluatedTargets
        return result
    }

    /// What the runs share.
    struct RunContext {
        let corpus: ServeCorpus
        let nginx: NginxServer
        let work: URL

        var origin: String { "http://127.0.0.1:\(nginx.originPort)" }
    }

    /// The 1-minute load average (`/proc/loadavg`), 0 when unknown.
    static func loadAverage() -> Double {
        let text = FileManager.default.contents(atPath: "/proc/loadavg").map { String(decoding: $0, as: UTF8.self) }
        return text.flatMap { Double($0.split(separator: " ").first ?? "") } ?? 0
    }

    static func rounded(_ value: Double, _ places: Int = 1) -> String {
        String(format: "%.\(places)f", value)
    }

    static func line(_ run: ServeRun) -> String {
        "\(run.server.rawValue) \(run.format.rawValue) \(run.pass.rawValue) \(run.connections) conn.: "
            + "\(rounded(run.requestsPerSecond)) req/s, p95 \(rounded(run.p95Milliseconds)) ms, "
            + "\(run.errors) errors, origin \(run.originRequests)"
    }
}
