public import Foundation
import PinholeShared

/// Turns ``ImageRequest``s into display-ready images: memory cache → coalesced image job → coalesced data job
/// (disk cache, then the loader under the network limit) → decode under the CPU limit → memory cache.
///
/// This file holds the entry points; each stage behind them has a file in `Jobs/`: the memory cache
/// (`ImagePipeline+MemoryCache`, `+SizeAwareLookup`), the image job (`+ImageJob`: `+EncodedImageCache`,
/// `+Decoding`, `+Processing`), the data job (`+DataJob`: `+OriginalDataCache`, `+Loading`, `+Previews`,
/// `+Revalidation`), and the coalescing they share (`CoalescingRegistry`, `JobKey`, `JobContext`).
///
/// - Coalescing: one image job per image identity and one data job per data identity (see ``ImageRequest``:
///   source key, processing and cache access; never priority), so N callers for one URL cause one download,
///   different sizes of one URL share it, and no caller gets bytes its options forbid.
/// - Cancellation: a cancelled caller leaves at once with `CancellationError`; a job is cancelled when its
///   last caller leaves, and its download stops.
/// - Priority: a job runs at the highest priority of its callers; ``ImageTask/priority`` re-orders queued work.
/// - Limits: ``Configuration/networkConcurrencyLimit`` downloads (``Configuration/networkConcurrencyLimitPerHost``
///   of one origin) and ``Configuration/processingConcurrencyLimit`` decodes at once; decoding runs on the
///   decoder's own threads, never on Swift's cooperative pool.
///
/// Thread-safe; every method may be called from any isolation, including the main actor (nothing blocks).
///
/// This module has no decoder and no HTTP loader of its own (it imports no C): `ImagePipeline.shared`, with
/// libvips decoding and libcurl loading, is in `PinholeVips` (`import PinholeVips`); or give a
/// ``Configuration`` your own ``ImageDecoding`` and ``DataLoading``.
public final class ImagePipeline: Sendable {
    typealias Priority = ImageRequest.Priority

    /// The configuration the pipeline was made with; under an untrusted ``Configuration/sourcePolicy`` with its
    /// limits clamped and its default loaders guarded (see ``SourcePolicy``).
    public let configuration: Configuration
    let imageJobs: CoalescingRegistry<ImageJobKey, LoadedImage>
    let dataJobs: CoalescingRegistry<DataJobKey, LoadedData>
    let networkQueue: WorkQueue
    let processingQueue: WorkQueue
    let recorder = MetricsRecorder()
    let lazyDiskCache: LazyDiskCache
    /// The untrusted-source checks; `nil` under ``SourcePolicy/trusted``.
    let sourceGuard: UntrustedSourceGuard?
    /// The thumbnails of each source and processing put in the memory cache: the size-aware lookup's index
    /// (LRU, at most 10,000 groups; only hints, each checked against the memory cache).
    let memoryVariants = MemoryCache<String, [ThumbnailOptions?]>(configuration: .init(countLimit: 10_000))
    /// The memory side of cached failures: the error of each source that failed lately, by source key, for at most
    /// ``Configuration/failureMemoryTTL`` (LRU, at most 1,000 sources).
    let recentFailures = MemoryCache<String, PinholeError>(configuration: .init(countLimit: 1000))
    /// The image tasks waiting on each data job (progress and previews).
    let loadObservers = LoadObservers()
    /// Downloads whose bytes wait for a decode before their disk store; data jobs of their sources take them.
    let unstoredDownloads = UnstoredDownloads()
    /// Decodes the frames of this pipeline's animations into one frame budget; `nil` when the decoder cannot
    /// (not an ``AnimatedImageDecoding``).
    let animationFrames: AnimationFrameSource?

    public init(configuration: Configuration) {
        (self.configuration, self.sourceGuard) = Self.applyingSourcePolicy(to: configuration)
        self.imageJobs = CoalescingRegistry(collectsMetrics: configuration.collectsTaskMetrics)
        self.dataJobs = CoalescingRegistry(collectsMetrics: configuration.collectsTaskMetrics)
        self.networkQueue = WorkQueue(
            limit: configuration.networkConcurrencyLimit, groupLimit: configuration.networkConcurrencyLimitPerHost)
        self.processingQueue = WorkQueue(limit: configuration.processingConcurrencyLimit)
        self.animationFrames = (configuration.decoder as? any AnimatedImageDecoding).map {
            [processingQueue, recorder] in
            AnimationFrameSource(
                decoder: $0, processingQueue: processingQueue, budget: configuration.animationFrameBudget,
                recorder: recorder)
        }
        self.lazyDiskCache = LazyDiskCache(
            directory: configuration.diskCacheDirectory,
            sizeLimit: configuration.diskCacheSizeLimit,
            onDiagnostic: configuration.onDiagnostic
        )
    }

    /// A pipeline with default settings around `decoder`: files and `data:` URLs, no HTTP
    /// (``Configuration/dataLoader``).
    public convenience init(decoder: any ImageDecoding) {
        self.init(configuration: Configuration(decoder: decoder))
    }

    /// Loads the image `request` names.
    ///
    /// Validates the request first (scheme; under an untrusted ``Configuration/sourcePolicy`` the full source
    /// check, DNS included), before any cache is consulted. Then answers synchronously-fast from the memory cache
    /// (no job is created), or joins or starts jobs.
    /// - Throws: `CancellationError` when the calling task is cancelled; ``PinholeError`` otherwise
    ///   (``PinholeError/Code/invalidRequest``, ``PinholeError/Code/untrustedSource`` before any cache lookup).
    public func image(for request: ImageRequest) async throws -> ImageResponse {
        try await image(
            for: request, subscriber: UniqueID.next(), priority: { request.priority },
            metrics: configuration.collectsTaskMetrics ? TaskMetricsCollector() : nil)
    }

    /// The full-size image at `url` (oriented, 8-bit sRGB), through the caches; `ImageRequest(url: url)`.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled; ``PinholeError`` otherwise.
    public func image(for url: URL) async throws -> ImageResponse {
        try await image(for: ImageRequest(url: url))
    }

    /// Starts loading and returns a handle whose priority can change and which can be cancelled.
    ///
    /// When a job for the request's image identity is running, the task has joined it before this returns (see
    /// ``ImageTask``); the request's checks and the caches still come first, and the task leaves the job when one
    /// of them ends the load.
    public func imageTask(for request: ImageRequest) -> ImageTask {
        ImageTask(pipeline: self, request: request)
    }

    /// The original bytes of `request`'s source, through the disk cache and the loader (coalesced with image jobs
    /// of the same source), with no decode. Downloaded bytes are stored in the disk cache when the request allows
    /// a write and HTTP allows storing (whatever ``Configuration/diskCachePolicy`` says: this is how a source gets
    /// to disk without being shown). Bytes to be stored are decoded first at 64 px under the CPU limit (only what
    /// decodes is stored); a body that is no image, or does not decode, fails.
    ///
    /// ``ImagePrefetcher`` with ``ImagePrefetcher/Destination/diskCache`` uses it.
    /// - Throws: `CancellationError`; ``PinholeError`` (``PinholeError/Code/notCached`` offline).
    public func data(for request: ImageRequest) async throws -> Data {
        try await data(for: request, subscriber: UniqueID.next(), priority: { request.priority })
    }

    /// The memory-cached image for `request`, or `nil`. Synchronous, lock-protected, no I/O. A hit counts in
    /// ``PipelineMetrics/memoryHits`` (so hits served to an ``ImageSlot`` show in the metrics too).
    ///
    /// Under an untrusted ``Configuration/sourcePolicy`` the request is validated first, as by ``image(for:)``: a
    /// URL the policy refuses gets `nil` even when another pipeline sharing the memory cache stored the image. Only
    /// URLs whose check needs no DNS and no file system (an `http(s)` URL with an IP-address host) can be answered
    /// here then; others get `nil` (``image(for:)`` checks them, then answers).
    ///
    /// Under ``Configuration/collectsTaskMetrics`` a hit carries its ``ImageResponse/metrics`` (the lookup alone).
    public func cachedImage(for request: ImageRequest) -> ImageResponse? {
        let start: ContinuousClock.Instant? = configuration.collectsTaskMetrics ? .now : nil
        guard passesChecksWithoutBlocking(request), var response = memoryCachedImage(for: request) else { return nil }
        recorder.record { $0.memoryHits += 1 }
        if let start {
            let elapsed = ContinuousClock.now - start
            response.metrics = ImageTaskMetrics(
                source: .memoryCache, total: elapsed, stages: [.memoryCacheLookup: elapsed])
        }
        return response
    }

    /// The counters since the pipeline was created.
    public var metrics: PipelineMetrics {
        var snapshot = recorder.snapshot
        snapshot.coalescedJoins = imageJobs.joinCount + dataJobs.joinCount
        return snapshot
    }

    /// Image jobs running now (each may serve several callers).
    public var activeImageJobCount: Int { imageJobs.activeJobCount }

    /// Downloads running now, and waiting for a network slot.
    public var networkQueueCounts: (running: Int, waiting: Int) {
        (networkQueue.runningCount, networkQueue.waitingCount)
    }

    /// Empties the memory cache and the failures kept in memory (``Configuration/failureMemoryTTL``); the disk cache
    /// is kept.
    public func removeAllCachedImages() {
        configuration.memoryCache?.removeAll()
        recentFailures.removeAll()
    }

    /// The disk cache, once opened; `nil` when none is configured or it could not be opened.
    public func diskCache() async -> DiskCache? { await lazyDiskCache.cache() }

    /// - Parameters:
    ///   - joined: the image job `subscriber` already joined (``ImageTask`` joins a running job when it is made);
    ///     awaited instead of subscribing again, and left when a check fails or a cache answers.
    ///   - metrics: the request's ``ImageTaskMetrics`` under way (``Configuration/collectsTaskMetrics``), ended
    ///     here however the request ends; `nil` measures nothing.
    func image(
        for request: ImageRequest,
        subscriber: UInt64,
        priority: @escaping @Sendable () -> Priority,
        joined: CoalescingRegistry<ImageJobKey, LoadedImage>.Subscription? = nil,
        metrics: TaskMetricsCollector? = nil
    ) async throws -> ImageResponse {
        do {
            if case (var answer, let source)? = try await answerWithoutJob(request, metrics: metrics) {
                joined.map(imageJobs.leave)
                if let metrics { answer.metrics = metrics.finish(source: source) }
                return answer
            }
        } catch {
            joined.map(imageJobs.leave)
            metrics?.finish(source: nil)
            throw error
        }
        let key = request.imageJobKey
        let loaded: LoadedImage
        do {
            if let joined {
                if let metrics, let job = joined.context { metrics.attach(job, joined: true) }
                loaded = try await imageJobs.value(of: joined)
            } else {
                loaded = try await imageJobs.value(
                    for: key, subscriber: subscriber, priority: priority,
                    observeJob: metrics.map { metrics in { job, joined in metrics.attach(job, joined: joined) } }
                ) { [self] context in try await runImageJob(request, key: key, context: context) }
            }
        } catch {
            metrics?.finish(source: nil)
            throw error
        }
        var response = ImageResponse(
            image: loaded.decoded.image, info: loaded.decoded.info, source: loaded.source, request: request,
            animation: loaded.decoded.animation)
        if let metrics { response.metrics = metrics.finish(source: ImageTaskMetrics.Source(loaded.source)) }
        return response
    }

    /// The data-only path of ``data(for:)``: the request's checks, the data job, then a small decode of bytes
    /// that are to be stored.
    func data(
        for request: ImageRequest, subscriber: UInt64, priority: @escaping @Sendable () -> Priority
    ) async throws -> Data {
        try validate(request)
        if request.data == nil { try await checkSource(request.url) }
        let key = request.dataJobKey
        let loaded = try await dataJobs.value(for: key, subscriber: subscriber, priority: priority) {
            [self] context in try await runDataJob(request, key: key, context: context)
        }
        if let metadata = loaded.pendingDiskEntry {
            // Nothing reaches the disk cache that has not decoded: a small decode under the CPU limit proves the
            // bytes whole (a sniffed header says nothing of a truncated or corrupt body). Bad bytes fail here.
            var options = decodingOptions(for: request)
            options.thumbnail = ThumbnailOptions(maxPixelSize: 64)
            _ = try await decodeUnderLimit(loaded.data, options: options, priority: priority, countsAsDecode: false)
            try Task.checkCancellation()
            if loaded.claimDiskStore() { await storeDownload(loaded, metadata: metadata, for: key.sourceKey) }
        }
        return loaded.data
    }

    /// What comes before any job: the request's checks (which throw), then the memory cache and the size-aware
    /// lookup (timed into `metrics`, when given); `nil` when a job must load the image.
    private func answerWithoutJob(
        _ request: ImageRequest, metrics: TaskMetricsCollector?
    ) async throws -> (ImageResponse, ImageTaskMetrics.Source)? {
        recorder.record { $0.requests += 1 }
        // Validation comes before any cache: a cache shared with a more trusting pipeline must not answer.
        try validate(request)
        if request.data == nil { try await checkSource(request.url) }  // bytes in hand: no URL is used
        let lookupStart: ContinuousClock.Instant? = metrics == nil ? nil : .now
        defer { if let metrics, let lookupStart { metrics.recordMemoryLookup(since: lookupStart) } }
        if let cached = memoryCachedImage(for: request) {
            recorder.record { $0.memoryHits += 1 }
            return (cached, .memoryCache)
        }
        return try await resizedFromLargerCachedImage(for: request).map { ($0, .memoryResize) }
    }

    /// The checks that need neither DNS nor the file system: the scheme, and under an untrusted policy the
    /// address literals, file root and `..` checks.
    func validate(_ request: ImageRequest) throws {
        guard request.data == nil else { return }  // bytes in hand: no URL is used
        try sourceGuard?.checkWithoutResolving(request.url)
        guard supportsScheme(of: request.url) else {
            throw PinholeError(.invalidRequest, "unsupported URL scheme in \(request.url.absoluteString)")
        }
    }

    /// Whether `request` passes every check that applies to it without blocking (see ``cachedImage(for:)``).
    /// Under the trusted policy there is no source check, and the scheme is left to ``image(for:)``: this is the
    /// synchronous hit path of every row (`ImageSlot`), kept to one lookup.
    private func passesChecksWithoutBlocking(_ request: ImageRequest) -> Bool {
        guard sourceGuard != nil else { return true }
        guard (try? validate(request)) != nil else { return false }
        return Self.isCheckedWithoutResolving(request.url)
    }
}
