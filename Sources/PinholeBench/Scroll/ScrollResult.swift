/// What one strategy's scroll run measured. Encoded as one JSON object per strategy (sorted keys).
///
/// Units: threads are counts of the process's threads without the in-process test server's (`pinhole-srv-*`);
/// bytes are bytes; `…Ms` are milliseconds; `…Seconds` seconds. Server counts come from the server's stats.
public struct ScrollResult: Sendable, Codable, Hashable {
    /// `idle` (the frame loop alone: the machine's own noise), `naive`, `pinhole` or `unguarded` (Pinhole with
    /// ImageSlot's generation check off).
    public var strategy: String
    /// Rows in the list, rows visible, server latency (ms), refresh on or off.
    public var rows: Int
    public var visibleRows: Int
    public var latencyMs: Int
    public var refresh: Bool
    /// Threads when the run started, and the most seen in any frame.
    public var baselineThreads: Int
    public var peakThreads: Int
    /// Presented frame interval percentiles on the 60 Hz grid (see ``FrameStatistics``).
    public var frameP50Ms: Double
    public var frameP99Ms: Double
    /// Raw tick interval 99th percentile and maximum (timer jitter included).
    public var rawFrameP99Ms: Double
    public var maxFrameMs: Double
    /// The main actor's own work per frame (inside the tick handler): 99th percentile and maximum, in ms.
    public var mainWorkP99Ms: Double
    public var mainWorkMaxMs: Double
    /// The main thread's CPU time inside the tick handler: 99th percentile and maximum, in ms (unlike the wall
    /// time above, it does not grow while other processes hold the core).
    public var mainCPUP99Ms = 0.0
    public var mainCPUMaxMs = 0.0
    /// The main-actor thread's CPU time per frame counting every main-actor job, not only the tick (results
    /// applied, loads started after it), the sampler left out: 99th percentile and maximum, in ms.
    public var mainCPUAllJobsP99Ms = 0.0
    public var mainCPUAllJobsMaxMs = 0.0
    /// Per phase of the tick (sampling, refresh, disappear, appear, draw, main-thread CPU): p50 / p99 / max.
    public var mainActorProfile = ""
    /// The 1-minute load average when the run ended (other processes competing for the cores).
    public var loadAverage: Double
    /// Frames ticked, hitches (> 16.7 ms) and hangs (> 250 ms).
    public var frames: Int
    public var hitches: Int
    public var hangs: Int
    /// `VmRSS` when the run started and the most sampled in any frame.
    public var startRSSBytes: Int
    public var peakRSSBytes: Int
    /// Server counts: requests whose head was read, answered in full, and closed early by the client.
    public var requestsStarted: Int
    public var requestsCompleted: Int
    public var requestsCancelled: Int
    /// Distinct URLs rows asked for.
    public var distinctURLs: Int
    /// Client-side: downloads started for a URL while another download of it ran (coalescing failed), and
    /// downloads started again after the URL's previous download was cancelled (its row came back).
    public var duplicateDownloads: Int
    public var downloadsRestartedAfterCancel: Int
    /// Images shown in cells, and those whose pixels' code (``ScrollImageCode``: row and refresh generation) was not
    /// the code of the URL the cell showed; of those, the ones whose code could not be read at all.
    public var imagesShown: Int
    public var wrongRowImages: Int
    public var unreadableImages: Int
    /// Time from a row binding a URL to its image being shown, median and maximum, in milliseconds (images shown
    /// in their own row; the server's latency is the floor).
    public var bindToImageP50Ms: Double
    public var bindToImageMaxMs: Double
    /// Seconds from the end of the scroll script to the last image applied (≥ this when ``timedOut``).
    public var settleSeconds: Double
    /// Whether the run hit its cap before it settled.
    public var timedOut: Bool
    /// URLs whose rows all left before their image arrived; of those, downloads cancelled or never started,
    /// completed anyway, and still unfinished when the run ended.
    public var leftEarly: Int
    public var leftEarlyCancelled: Int
    public var leftEarlyCompleted: Int
    public var leftEarlyUnfinished: Int
    /// `leftEarlyCancelled / leftEarly` (1 when nothing left early).
    public var cancelledOfLeft: Double
    /// Rows on screen at the end, and those showing their own current image.
    public var finalVisibleRows: Int
    public var finalRowsShowingOwnImage: Int
    /// Wall time of the run, script and settling, in seconds.
    public var runSeconds: Double
}
