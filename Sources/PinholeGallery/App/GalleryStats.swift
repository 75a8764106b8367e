public import Foundation

/// What `pinhole gallery --stats-json FILE` writes at exit: frame times and pipeline figures of the run.
///
/// Times in milliseconds, memory in bytes. Keys are written sorted.
public struct GalleryStats: Sendable, Codable, Equatable {
    /// Median frame time (ms; see ``FrameStats``).
    public var frameP50Ms: Double
    /// 99th-percentile frame time (ms).
    public var frameP99Ms: Double
    /// Longest frame (ms).
    public var frameMaxMs: Double
    /// Median, 99th percentile and longest main-actor work per frame (ms): the part of the frame time spent in
    /// the tick itself rather than waiting to be scheduled.
    public var workP50Ms: Double
    public var workP99Ms: Double
    public var workMaxMs: Double
    /// Timer ticks (frames) in the run.
    public var frames: Int
    /// Frames that wrote output.
    public var framesDrawn: Int
    /// Frames whose drawing waited because the terminal was still taking the previous one.
    public var framesDeferred: Int
    /// Frames over 16.7 ms.
    public var hitches: Int
    /// Frames over 250 ms.
    public var hangs: Int
    /// Most threads in the process at one time (sampled every 100 ms).
    public var peakThreads: Int
    /// Peak resident memory (bytes; `VmHWM`).
    public var peakRSSBytes: Int
    /// Thumbnails that reached the screen.
    public var imagesShown: Int
    /// Pipeline requests answered from the memory cache.
    public var memoryHits: Int
    /// Pipeline requests.
    public var requests: Int
    /// Downloads started, completed and cancelled.
    public var downloadsStarted: Int
    public var downloadsCompleted: Int
    public var downloadsCancelled: Int
    /// Successful decodes.
    public var decodes: Int
    /// Items in the feed (0 if it did not load).
    public var feedItems: Int
    /// CPU time the process used (user + system, all threads), in seconds; divided by ``seconds`` it is the
    /// number of cores kept busy on average.
    public var cpuSeconds: Double
    /// Wall-clock length of the run in seconds.
    public var seconds: Double
    /// The exit status.
    public var exitStatus: Int32
    /// The graphics mode pictures were drawn in: `kitty`, `iterm`, `sixel`, `symbols` or `halfblocks`.
    public var mode: String
    /// The terminal's cell size in pixels (as reported, or 10 × 20 when it did not say).
    public var cellPixelWidth: Int
    public var cellPixelHeight: Int
    /// Photos shown in the full view.
    public var fullViewsShown: Int
    /// Frame figures by what was on screen at each frame: `list`, `grid`, `fullView` (only those that were).
    public var views: [String: ViewFigures]
    /// What the animations did; `nil` when none played.
    public var animation: AnimationFigures? = nil

    /// The animation figures of a run: ``AnimationTicker/Metrics`` and the pipeline's frame counts.
    public struct AnimationFigures: Sendable, Codable, Equatable {
        /// Ticks that had a slot to animate, and frame changes shown in slots.
        public var ticks: Int
        public var framesShown: Int
        /// Frames that were due and never shown (a late tick, or a frame not decoded or drawn in time).
        public var framesSkipped: Int
        /// Frames decoded, answered by the frame budget, and evicted from it (``PipelineMetrics``).
        public var framesDecoded: Int
        public var framesReused: Int
        public var framesEvicted: Int
        /// Main-actor time per tick, on average and at most (ms): showing each slot's frame and asking for its
        /// picture, the gallery's handlers included.
        public var tickMeanMs: Double
        public var tickMaxMs: Double
        /// Frames the pipeline's frame budget held at most, in bytes.
        public var peakFrameBytes: Int
    }

    /// Frame times of the frames spent in one view (ms; see ``FrameStats``).
    public struct ViewFigures: Sendable, Codable, Equatable {
        public var frames: Int
        public var frameP50Ms: Double
        public var frameP99Ms: Double
        public var frameMaxMs: Double
        public var workP99Ms: Double
        public var hitches: Int
        public var hangs: Int

        public init(_ stats: FrameStats) {
            frames = stats.samples.count
            frameP50Ms = stats.percentile(0.5)
            frameP99Ms = stats.percentile(0.99)
            frameMaxMs = stats.maximum
            workP99Ms = FrameStats.percentile(stats.workSamples, 0.99)
            hitches = stats.hitches
            hangs = stats.hangs
        }
    }

    /// The JSON text (sorted keys, pretty-printed).
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
