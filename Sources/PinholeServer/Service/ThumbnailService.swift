public import Foundation
public import Pinhole
import PinholeShared

/// Turns (source, ``ProcessingOptions``, `Accept`) into encoded bytes through one ``ImagePipeline``, once per
/// identity at a time.
///
/// - The pipeline coalesces the download of a source across every size, and the decode of one size across
///   callers; its memory and disk caches hold images and sources.
/// - Encoded answers live in their own memory cache (LRU by bytes), so a hot URL costs a lookup; identical
///   requests that arrive while one is being made wait for it (``coalescedJoins``).
/// - No caller cancels shared work: a client cannot leave a suspended connection, and the pipeline's own
///   deadline bounds every request.
///
/// Thread-safe.
public final class ThumbnailService: Sendable {
    /// What the service encodes with and keeps.
    public struct Configuration: Sendable {
        /// The pipeline: decoder, loader, limits, caches.
        public var pipeline: ImagePipeline
        /// The encoder of answers.
        public var encoder: any ImageEncoding
        /// Quality when the URL gives none; 80 by default.
        public var defaultQuality = 80
        /// The order formats are chosen in when `Accept` ranks them equally: WebP, AVIF, JPEG, PNG by default
        /// (WebP encodes thumbnails several times faster than AVIF).
        public var formatPreference: [OutputFormat] = [.webp, .avif, .jpeg, .png]
        /// Bytes of encoded answers kept in memory; 64 MB by default.
        public var encodedCacheCostLimit = 64_000_000
        /// The deadline of one answer's whole making (download, decode, encode): past it the work is cancelled and
        /// the answer is a ``PinholeError/Code/timeout``; 30 s by default.
        public var timeout: Duration = .seconds(30)
        /// Admission of answers to be made (a place at arrival, memory for each encode; the pipeline's decoder
        /// takes memory for each decode); `nil` (the default) admits everything at once.
        public var admission: AdmissionController?
        /// The most frames an animated answer holds (``ProcessingOptions/animated``); a source with more is
        /// answered with its first frame. 256 by default.
        public var maxAnimationFrames = 256
        /// The most pixels an animated answer's frames hold together (frames × width × height at the thumbnail
        /// size); past it the answer is the first frame. 16,000,000 (64 MB of RGBA) by default.
        public var maxAnimationPixels = 16_000_000
        /// The frame pixels every animated answer being made holds together, at most (one at the pixel limit, or
        /// several smaller ones); shared by default with nothing else.
        public var animationWrites = AnimationWriteBudget(capacity: 16_000_000)

        public init(pipeline: ImagePipeline, encoder: any ImageEncoding) {
            self.pipeline = pipeline
            self.encoder = encoder
        }
    }

    public let configuration: Configuration
    let encodedCache: MemoryCache<EncodedThumbnailKey, EncodedThumbnail>
    let inFlight = Locked<[EncodedThumbnailKey: Task<EncodedThumbnail, any Error>]>([:])
    let counters = Locked(Counters())
    /// The pipeline's stage times over the images answers were made from (`/metrics`).
    let stageTimes = StageHistograms()

    struct Counters {
        var encodedHits = 0
        var coalescedJoins = 0
        var encodes = 0
    }

    public init(configuration: Configuration) {
        self.configuration = configuration
        encodedCache = MemoryCache(
            configuration: .init(
                costLimit: configuration.encodedCacheCostLimit, countLimit: 100_000,
                entryCostLimit: configuration.encodedCacheCostLimit / 4))
    }

    /// Answers waiting in the encoded cache.
    public var encodedCacheBytes: Int { encodedCache.totalCost }
    /// Requests answered from the encoded cache.
    public var encodedHits: Int { counters.withLock { $0.encodedHits } }
    /// Requests that waited for an identical one already being made.
    public var coalescedJoins: Int { counters.withLock { $0.coalescedJoins } }
    /// Answers encoded.
    public var encodes: Int { counters.withLock { $0.encodes } }

    /// The encoded answer if it is in memory now; never waits. Safe on a server's polling thread.
    public func cachedThumbnail(source: URL, options: ProcessingOptions, accept: AcceptHeader) -> EncodedThumbnail? {
        let key = key(source: source, options: options, accept: accept)
        guard let hit = encodedCache[key] else { return nil }
        counters.withLock { $0.encodedHits += 1 }
        return hit
    }

    /// Where an answer came from, for the access log.
    public enum Provenance: Sendable, Equatable, CustomStringConvertible {
        /// The encoded-answer cache.
        case encodedCache
        /// An identical request being made when this one arrived.
        case joined
        /// Made now, from the image the pipeline found there.
        case made(ImageResponse.Source)

        public var description: String {
            switch self {
            case .encodedCache: "memory"
            case .joined: "coalesced"
            case .made(let source): source.rawValue
            }
        }
    }

    /// The encoded answer: from memory, from a request being made, or made now.
    ///
    /// - Throws: ``PinholeError`` from the pipeline or the encoder (its ``PinholeError/code`` says which).
    public func thumbnail(source: URL, options: ProcessingOptions, accept: AcceptHeader) async throws
        -> EncodedThumbnail
    {
        try await answer(source: source, options: options, accept: accept).thumbnail
    }

    /// ``thumbnail(source:options:accept:)`` and where it came from.
    public func answer(source: URL, options: ProcessingOptions, accept: AcceptHeader) async throws
        -> (thumbnail: EncodedThumbnail, provenance: Provenance)
    {
        let key = key(source: source, options: options, accept: accept)
        if let hit = encodedCache[key] {
            counters.withLock { $0.encodedHits += 1 }
            return (hit, .encodedCache)
        }
        let (task, joined) = inFlight.withLock { tasks -> (Task<EncodedThumbnail, any Error>, Bool) in
            if let running = tasks[key] {
                counters.withLock { $0.coalescedJoins += 1 }
                return (running, true)
            }
            let made = Task.detached { [self] in
                defer { _ = inFlight.withLock { $0.removeValue(forKey: key) } }
                guard let admission = configuration.admission else {
                    return try await makeWithinDeadline(key, source: source, options: options)
                }
                // The wait for a place comes before the deadline's clock starts: it has its own (the queue timeout).
                return try await admission.admitted {
                    try await makeWithinDeadline(key, source: source, options: options)
                }
            }
            tasks[key] = made
            return (made, false)
        }
        let made = try await task.value
        return (made, joined ? .joined : .made(made.imageSource))
    }

    func key(source: URL, options: ProcessingOptions, accept: AcceptHeader) -> EncodedThumbnailKey {
        let animation = options.animated ? Self.animationFormat(asked: options.format, accept: accept) : nil
        let image = ImageKey(
            sourceKey: ImageRequest.defaultSourceKey(for: source), thumbnail: options.thumbnail,
            processing: options.cacheBuster.isEmpty ? "" : "cb=\(options.cacheBuster)", isAnimated: animation != nil)
        let choice: EncodedThumbnailKey.FormatChoice =
            options.format.map { .explicit($0) }
            ?? .negotiated(
                opaque: accept.negotiate(preference: configuration.formatPreference, hasAlpha: false),
                alpha: accept.negotiate(preference: configuration.formatPreference, hasAlpha: true))
        return EncodedThumbnailKey(
            image: image, format: choice, animation: animation, quality: options.quality ?? configuration.defaultQuality
        )
    }

    /// ``make(_:source:options:)`` within ``Configuration/timeout``: past it the answer is
    /// ``PinholeError/Code/timeout`` at once and the work is cancelled. The caller does not wait for the work to
    /// notice: an encode on a worker thread runs to its end (libvips cannot be interrupted there), and its result
    /// is dropped.
    func makeWithinDeadline(
        _ key: EncodedThumbnailKey, source: URL, options: ProcessingOptions
    ) async throws -> EncodedThumbnail {
        let timeout = configuration.timeout
        let outcome = Locked<Result<EncodedThumbnail, any Error>?>(nil)
        let waiter = Locked<CheckedContinuation<EncodedThumbnail, any Error>?>(nil)
        /// The first outcome resumes the caller; any later one is dropped.
        @Sendable func finish(_ result: Result<EncodedThumbnail, any Error>) {
            let first = outcome.withLock { stored -> Bool in
                guard stored == nil else { return false }
                stored = result
                return true
            }
            guard first, let continuation = waiter.withLock({ $0.take() }) else { return }
            continuation.resume(with: result)
        }
        let work = Task {
            do {
                finish(.success(try await self.make(key, source: source, options: options)))
            } catch {
                finish(.failure(error))
            }
        }
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            finish(.failure(PinholeError(.timeout, "no answer within \(timeout) for \(source.absoluteString)")))
            work.cancel()
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let early = outcome.withLock { stored -> Result<EncodedThumbnail, any Error>? in
                if stored == nil { waiter.withLock { $0 = continuation } }
                return stored
            }
            if let early { continuation.resume(with: early) }
        }
    }

    func make(_ key: EncodedThumbnailKey, source: URL, options: ProcessingOptions) async throws -> EncodedThumbnail {
        var request = ImageRequest(url: source, thumbnail: options.thumbnail, timeout: configuration.timeout)
        if key.image.isAnimated { request.options.insert(.animated) }
        let response = try await configuration.pipeline.image(for: request)
        if let metrics = response.metrics { stageTimes.record(metrics) }
        try Task.checkCancellation()
        if let format = key.animation, let animation = response.animation,
            let made = try await animatedAnswer(
                animation, format: format, quality: key.quality, source: response.source)
        {
            counters.withLock { $0.encodes += 1 }
            // An animation cut short is answered with its whole frames, never kept as the answer.
            if made.isComplete { encodedCache.insert(made, for: key, cost: made.body.count + key.memoryCost) }
            return made
        }
        let format = key.format.format(hasAlpha: response.image.hasAlpha)
        let encoding = EncodingOptions(format: format.imageFormat, quality: key.quality)
        let body: Data
        if let admission = configuration.admission {
            // The encoder's copy of the pixels and its output, at most about as large as the pixels.
            body = try await admission.withMemory(response.image.pixels.count * 2) {
                try await configuration.encoder.encode(response.image, options: encoding)
            }
        } else {
            body = try await configuration.encoder.encode(response.image, options: encoding)
        }
        let encoded = EncodedThumbnail(
            body: body, format: format, etag: EntityTag.strong(for: body),
            lastModified: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)),
            imageSource: response.source, size: PixelSize(width: response.image.width, height: response.image.height))
        counters.withLock { $0.encodes += 1 }
        encodedCache.insert(encoded, for: key, cost: body.count + key.memoryCost)
        return encoded
    }
}
