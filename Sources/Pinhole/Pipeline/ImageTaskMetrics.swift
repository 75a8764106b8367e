/// Where the time of one request went: where its result came from, how long each stage took, what was
/// transferred, and whether the request joined a job another caller had started.
///
/// Recorded only when ``ImagePipeline/Configuration/collectsTaskMetrics`` is on; then every ``ImageResponse``
/// carries one (``ImageResponse/metrics``), and an ``ImageTask`` has one once it has finished, failed or not
/// (``ImageTask/metrics``). Durations are `Duration`s, measured with `ContinuousClock`.
///
/// The stages of a shared job are that job's: two callers of one job see the same stage times, and only the one
/// that joined (not the one that started it) has ``joinedExistingJob`` set.
public struct ImageTaskMetrics: Sendable, Hashable {
    /// Where the result came from, finer than ``ImageResponse/Source``.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// The memory cache's image for the request.
        case memoryCache
        /// A larger memory-cached image of the same source, shrunk (the size-aware lookup).
        case memoryResize
        /// An encoded thumbnail from the disk cache (no download, no full decode).
        case thumbnailDiskCache
        /// Original bytes from the disk cache, fresh, decoded now.
        case dataDiskCache
        /// Original bytes from the disk cache after the origin answered `304 Not Modified`, decoded now.
        case revalidated
        /// Stale original bytes from the disk cache, standing in for an origin that could not be reached.
        case staleDiskCache
        /// Downloaded now (`http`, `https`, or a custom scheme's loader), decoded now.
        case network
        /// Read from a local file now, decoded now.
        case file
        /// Bytes given with the request or carried by a `data:` URL, decoded now.
        case providedData
    }

    /// One stage of a load, in the order they run. Its raw value names it in exports (`decode`,
    /// `network_queue_wait`).
    public enum Stage: String, Sendable, Hashable, CaseIterable {
        /// The memory cache, and the size-aware lookup with its shrink when one was tried.
        case memoryCacheLookup = "memory_cache_lookup"
        /// Reading the disk cache for an encoded thumbnail (its decode counts in ``decode``).
        case thumbnailDiskLookup = "thumbnail_disk_lookup"
        /// Reading the disk cache for the original bytes.
        case dataDiskLookup = "data_disk_lookup"
        /// Waiting for a network slot (``ImagePipeline/Configuration/networkConcurrencyLimit``).
        case networkQueueWait = "network_queue_wait"
        /// ``TransferMetrics/nameLookup``.
        case nameLookup = "name_lookup"
        /// ``TransferMetrics/connect``.
        case connect
        /// ``TransferMetrics/secureConnect``.
        case secureConnect = "secure_connect"
        /// ``TransferMetrics/firstByte``.
        case firstByte = "first_byte"
        /// ``TransferMetrics/download``.
        case download
        /// The whole load by the loader, as the pipeline saw it (a file read, a whole HTTP transfer).
        case load
        /// Waiting for a CPU slot (``ImagePipeline/Configuration/processingConcurrencyLimit``).
        case decodeQueueWait = "decode_queue_wait"
        /// Decoding (a source, or a stored encoded thumbnail).
        case decode
        /// The request's processors.
        case process
        /// Encoding the thumbnail for the disk cache.
        case encode
        /// Writing the disk cache (original bytes, encoded thumbnail).
        case store
    }

    /// Where the result came from; `nil` when the request failed or was cancelled.
    public var source: Source?
    /// Whether the request joined an image job another caller had started (request coalescing); the stage times
    /// are then that job's. `false` for the caller that started it, and for answers from the memory cache.
    public var joinedExistingJob: Bool
    /// From the start of the request (``ImagePipeline/image(for:)`` or ``ImagePipeline/imageTask(for:)``) to its
    /// answer or failure.
    public var total: Duration
    /// What the loader reported of the transfer; `nil` when nothing was loaded (a cache answered, the bytes were
    /// in hand) or the load failed.
    public var transfer: TransferMetrics?
    /// The stages that ran, with their durations (summed when one ran more than once, as a decode does after a
    /// disk entry that did not decode). A stage that did not run has no entry.
    public var stages: [Stage: Duration]

    public init(
        source: Source?, joinedExistingJob: Bool = false, total: Duration, transfer: TransferMetrics? = nil,
        stages: [Stage: Duration] = [:]
    ) {
        self.source = source
        self.joinedExistingJob = joinedExistingJob
        self.total = total
        self.transfer = transfer
        self.stages = stages
    }

    /// The duration of `stage`, or `nil` when it did not run.
    public subscript(stage: Stage) -> Duration? { stages[stage] }

    /// The stages that ran, in the order of ``Stage/allCases``.
    public var orderedStages: [(stage: Stage, duration: Duration)] {
        Stage.allCases.compactMap { stage in stages[stage].map { (stage, $0) } }
    }
}
