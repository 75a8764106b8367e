import PinholeShared
import Synchronization

/// A snapshot of a pipeline's counters since it was created.
public struct PipelineMetrics: Sendable, Hashable, Codable {
    /// Calls to `image(for:)` and image tasks started.
    public var requests = 0
    /// Requests answered from the memory cache.
    public var memoryHits = 0
    /// Data jobs answered from the disk cache (fresh entries and `304` revalidations).
    public var diskHits = 0
    /// Callers that joined an image or data job already running (request coalescing).
    public var coalescedJoins = 0
    /// Downloads handed to the data loader (HTTP and files).
    public var downloadsStarted = 0
    /// Downloads that delivered a response.
    public var downloadsCompleted = 0
    /// Downloads stopped because nobody wanted them any more.
    public var downloadsCancelled = 0
    /// Downloads that failed (status, timeout, size, transport…).
    public var downloadsFailed = 0
    /// Data jobs answered by a finished download of their source whose bytes were not in the disk cache yet (a
    /// decode of them was under way), instead of downloading them again: another size asked for just after the
    /// download ended.
    public var downloadsReused = 0
    /// Stale disk entries used because the origin could not be reached while revalidating them (also counted in
    /// ``diskHits``).
    public var staleHits = 0
    /// Data jobs answered by a failure kept for their source, from memory or the disk cache, without asking the
    /// origin (``ImagePipeline/Configuration/failureMemoryTTL``, ``DiskCacheFreshness``).
    public var failureHits = 0
    /// Conditional requests answered `304 Not Modified`.
    public var notModified = 0
    /// Body bytes received from loaders.
    public var bytesReceived = 0
    /// Decodes finished successfully.
    public var decodes = 0
    /// Decodes that failed.
    public var decodeFailures = 0
    /// Total time spent in successful decodes, in seconds.
    public var decodeSeconds = 0.0
    /// Image jobs answered by an encoded thumbnail from the disk cache (no download, no full decode).
    public var thumbnailDiskHits = 0
    /// Encoded thumbnails written to the disk cache.
    public var thumbnailDiskWrites = 0
    /// Requests answered by shrinking a larger memory-cached image (the size-aware lookup).
    public var memoryResizes = 0
    /// Images that went through a request's processors.
    public var processed = 0
    /// Progressive previews made (never cached).
    public var previews = 0
    /// Animation frames decoded (``AnimatedImage/frame(at:priority:)``: a run of frames counts each frame).
    public var framesDecoded = 0
    /// Animation frames answered by the frame budget without a decode (``AnimatedImage/frame(at:priority:)`` and
    /// ``AnimatedImage/cachedFrame(at:)`` hits).
    public var framesReused = 0
    /// Animation frames evicted from the frame budget to make room
    /// (``ImagePipeline/Configuration/animationFrameBudget``).
    public var framesEvicted = 0

    public init() {}
}

/// Thread-safe counters behind ``PipelineMetrics``.
final class MetricsRecorder: Sendable {
    private let state = Locked(PipelineMetrics())

    var snapshot: PipelineMetrics { state.withLock { $0 } }

    func record(_ update: (inout PipelineMetrics) -> Void) {
        state.withLock { update(&$0) }
    }
}
