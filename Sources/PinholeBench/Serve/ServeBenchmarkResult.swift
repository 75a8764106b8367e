/// The format a serving run asks for.
public enum ServeFormat: String, Sendable, Codable, Hashable, CaseIterable {
    /// `rs:fit:512:512` with `@jpg`.
    case jpeg
    /// `rs:fit:512:512`, no extension, `Accept: image/webp`.
    case webp
}

/// Which server a run measured.
public enum ServeServer: String, Sendable, Codable, Hashable {
    case pinhole
    case nginxImageFilter = "nginx-image-filter"
}

/// Whether the answers of a run had to be made.
public enum ServePass: String, Sendable, Codable, Hashable {
    /// Every request for a source URL not asked before (a unique query on the origin URL): download, decode,
    /// resize and encode each time.
    case cold
    /// The same URLs, one per photo, over and over after one priming pass: answers from the server's caches.
    case steady
}

/// Everything `pinhole bench serve` measured.
public struct ServeBenchmarkResult: Sendable, Codable {
    /// Active processor count.
    public var cores: Int
    /// `/proc/loadavg`'s 1-minute figure before and after (others share the machine).
    public var loadAverageBefore: Double
    public var loadAverageAfter: Double
    /// Photos in the 2K corpus, their longest side and mean size.
    public var corpusFiles: Int
    public var corpusLongestSide: Int
    public var corpusMeanBytes: Int
    /// Seconds of each timed wrk run.
    public var secondsPerRun: Int
    /// Whether URLs were signed (HMAC-SHA256 checked by the server).
    public var signed: Bool
    /// `pinhole thumbnail` in one process over the same files and size.
    public var inProcess: [InProcessReference]
    /// Every wrk run, in the order made.
    public var runs: [ServeRun]
    /// The hot-key run, when made.
    public var hotKeys: HotKeyResult?
    /// Issue 26's targets over these figures (``evaluatedTargets``, stored so the JSON has them).
    public var targets: [ServeTarget] = []
}

/// `pinhole thumbnail CORPUS --size 512 --format F --jobs N`, timed as a whole process.
public struct InProcessReference: Sendable, Codable, Hashable {
    public var format: ServeFormat
    public var jobs: Int
    /// Images per second of each run (wall time of the process, start-up included).
    public var imagesPerSecond: Samples
    /// CPU seconds per image (user + system of the child, the median run).
    public var cpuSecondsPerImage: Double
    /// The time one image takes on its worker: jobs / (images per second), median run.
    public var secondsPerImage: Double
}

/// One wrk run against one server.
public struct ServeRun: Sendable, Codable, Hashable {
    public var server: ServeServer
    public var format: ServeFormat
    public var pass: ServePass
    public var connections: Int
    public var requests: Int
    public var seconds: Double
    public var requestsPerSecond: Double
    public var p50Milliseconds: Double
    public var p95Milliseconds: Double
    public var p99Milliseconds: Double
    public var maxMilliseconds: Double
    /// Socket errors, timeouts and statuses ≥ 400.
    public var errors: Int
    /// Times a wrk thread ran out of distinct paths (0 for a cold run that stayed cold).
    public var wrapped: Int
    /// Peak RSS of the server process (nginx: master and workers summed), over its life, in bytes.
    public var peakResidentBytes: Int
    /// Server CPU seconds (user + system) during the run, per answer.
    public var cpuSecondsPerRequest: Double
    /// Requests the origin received during the run (nginx reads the files itself: 0).
    public var originRequests: Int
    /// The server's own counters after the run (`pinhole_…` of /metrics without the prefix; pinhole only).
    public var metrics: [String: Double] = [:]

    init(
        server: ServeServer, format: ServeFormat, pass: ServePass, summary: WrkSummary, peakResidentBytes: Int,
        cpuSeconds: Double, originRequests: Int, connections: Int
    ) {
        self.server = server
        self.format = format
        self.pass = pass
        self.connections = connections
        requests = summary.requests
        seconds = Double(summary.durationMicroseconds) / 1_000_000
        requestsPerSecond = summary.requestsPerSecond
        p50Milliseconds = Double(summary.p50Microseconds) / 1000
        p95Milliseconds = Double(summary.p95Microseconds) / 1000
        p99Milliseconds = Double(summary.p99Microseconds) / 1000
        maxMilliseconds = Double(summary.maxMicroseconds) / 1000
        errors = summary.errors
        wrapped = summary.wrapped
        self.peakResidentBytes = peakResidentBytes
        cpuSecondsPerRequest = summary.requests > 0 ? cpuSeconds / Double(summary.requests) : 0
        self.originRequests = originRequests
    }

    /// A cold pinhole run whose distinct URLs ran out (later requests could be answered from the cache). nginx
    /// caches nothing, and steady runs cycle by design.
    public var ranOutOfURLs: Bool { server == .pinhole && pass == .cold && wrapped > 0 }
}

/// Many requests for a few uncached sources at once, on a fresh server: coalescing and caches at work.
public struct HotKeyResult: Sendable, Codable, Hashable {
    public var requests: Int
    public var sources: Int
    public var connections: Int
    /// What curl saw for the first (uncached) round (its wall time includes curl's start).
    public var requestsPerSecond: Double
    public var p95Milliseconds: Double
    public var errors: Int
    /// Requests the origin received: one per source when downloads coalesce.
    public var originRequests: Int
    /// Server CPU seconds per request over the round (the sources' making included).
    public var cpuSecondsPerRequest: Double
    /// The same requests again, every answer cached: CPU seconds per request, rate and p95.
    public var cachedCPUSecondsPerRequest: Double
    public var cachedRequestsPerSecond: Double
    public var cachedP95Milliseconds: Double
    /// Server CPU seconds per request of the cold JPEG run at the same connection count (the comparison).
    public var coldCPUSecondsPerRequest: Double
    /// Peak RSS of the server over both rounds, in bytes.
    public var peakResidentBytes: Int
    /// Images the server encoded and coalesced joins, from its /metrics (when it reports them).
    public var metrics: [String: Double]
}
