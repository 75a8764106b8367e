public import Foundation

extension ImagePipeline {
    /// Everything a pipeline is made of, with documented defaults.
    public struct Configuration: Sendable {
        /// Decodes and downsamples (``PinholeVips/VipsDecoder`` on Linux). Required: the core module has no codec.
        public var decoder: any ImageDecoding
        /// Fetches original bytes; by default files through a ``FileDataLoader`` and no HTTP (the core has no HTTP
        /// client): on Linux pass `SchemeRoutingDataLoader(http: HTTPDataLoader())` from `PinholeCurl`, as
        /// `ImagePipeline.shared` does.
        public var dataLoader: any DataLoading
        /// Loaders for other URL schemes, by lowercased scheme (`"s3"`, `"asset"`), tried before ``dataLoader``;
        /// empty by default. `data:` URLs (RFC 2397) are built in. The pipeline accepts a request whose scheme is
        /// `http`, `https`, `file`, `data` or a key here, and refuses any other with
        /// ``PinholeError/Code/invalidRequest``.
        public var dataLoaders: [String: any DataLoading] = [:]
        /// Encodes thumbnails for the disk cache when ``diskCachePolicy`` stores encoded images (``PinholeVips``'s
        /// `VipsEncoder`); `nil` by default (then only original bytes are stored).
        public var encoder: (any ImageEncoding)?
        /// What the disk cache keeps: original bytes, encoded processed thumbnails, or both;
        /// ``DiskCachePolicy/storeOriginalData`` by default.
        public var diskCachePolicy: DiskCachePolicy = .storeOriginalData
        /// Where ``ImageRequest/processors`` and the size-aware memory lookup run; ``WorkerThreadPool/cpu`` by
        /// default (never Swift's cooperative pool).
        public var processingPool: WorkerThreadPool = .cpu
        /// Decoded images by ``ImageKey``; a cache with default limits (15% of physical memory, capped at
        /// 512 MB; 1,000 entries) by default. `nil` disables it.
        public var memoryCache: MemoryCache<ImageKey, DecodedImage>?
        /// Whether an image made from an `http(s)` response leaves ``memoryCache`` once that response is no longer
        /// fresh; `true` by default.
        ///
        /// The freshness is the disk cache's (``DiskCacheFreshness``: `max-age`, `Expires`, the heuristic, less the
        /// response's age), whether or not a disk cache is configured: an image made from a `max-age=N` response
        /// answers from memory for at most N s (or the memory cache's own ``MemoryCache/Configuration/ttl``, when
        /// shorter); one made from a `no-cache`, `no-store`, `max-age=0` or expired response is not kept in memory,
        /// so the next request asks the disk cache (which revalidates) or the origin. An image from a disk-cache
        /// entry (original or encoded thumbnail) keeps that entry's freshness; a stale entry standing in for an
        /// unreachable origin is not kept in memory. Files, `data:` URLs and custom schemes are not limited.
        /// `false` keeps images by the memory cache's limits and TTL alone, whatever HTTP said (Nuke's behaviour).
        public var memoryCacheFollowsHTTPFreshness = true
        /// Directory of the disk cache (original bytes of HTTP and custom-scheme sources, and encoded thumbnails as
        /// ``diskCachePolicy`` says); `nil` (no disk cache) by default. Pipelines given the same directory share
        /// one ``DiskCache`` (the first one's size limit applies).
        /// An unusable directory leaves the pipeline working without it, reported once through
        /// ``onDiagnostic``.
        public var diskCacheDirectory: URL?
        /// Hard size limit of the disk cache in bytes; 150,000,000 by default.
        public var diskCacheSizeLimit: Int = 150_000_000
        /// How long a disk-cache entry stays fresh when its response gave no explicit freshness (no `max-age`, no
        /// `Expires`) and no `Last-Modified`; also the cap of the heuristic freshness (10 % of the time since
        /// `Last-Modified`). 7 days by default. A stale entry is revalidated (`If-None-Match`/`If-Modified-Since`)
        /// when it has a validator, and fetched again otherwise. The full rules (RFC 9111) are on ``DiskCache``.
        public var diskCacheDefaultFreshness: Duration = .seconds(7 * 24 * 3600)
        /// How long a source's failure answers again from memory without a new load, so that a list scrolled back
        /// and forth does not fetch a missing image each time it shows; 30 s by default, `.zero` turns it off.
        ///
        /// Kept: a missing file (``PinholeError/Code/fileNotFound``) and an HTTP error status
        /// (``PinholeError/Code/httpStatus``) that HTTP calls cacheable: `404`, `405`, `410`, `414` or `501`, or any
        /// status with an explicit `max-age` or `Expires`; when ``memoryCacheFollowsHTTPFreshness``, at most for
        /// that explicit freshness, and never one that says `no-store`. Never a cancellation, a timeout, a transport
        /// failure, a local limit, or a `5xx` without freshness (the next request tries the origin again). A `429` or
        /// `503` with `Retry-After` is kept for at least that wait, at most this TTL, whatever the rest of its head
        /// says (RFC 9110 §10.2.3: https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3).
        /// ``ImageRequest/Options/reloadIgnoringCachedData`` and ``ImageSlot/retry()`` skip it, and a successful
        /// load of the source forgets it. A cacheable error response is also stored in the disk cache for its HTTP
        /// freshness (``DiskCacheFreshness``).
        public var failureMemoryTTL: Duration = .seconds(30)
        /// Downloads at once; 8 by default.
        public var networkConcurrencyLimit: Int = 8
        /// Downloads at once from one origin (scheme, host and port), so that one that stalls leaves the other slots
        /// to other origins; 6 by default (as browsers), `nil` for no limit beside ``networkConcurrencyLimit``.
        public var networkConcurrencyLimitPerHost: Int? = 6
        /// Decodes at once; the active processor count by default. Decodes run on the decoder's own threads.
        public var processingConcurrencyLimit: Int = ProcessInfo.processInfo.activeProcessorCount
        /// The most pixels an input may declare (per frame); 100,000,000 by default.
        public var maxPixelCount: Int = DecodingOptions.defaultMaxPixelCount
        /// The most frames an animation may declare; 1,000 by default.
        public var maxFrameCount: Int = 1000
        /// The bytes of decoded animation frames (``PixelImage/cost``) the pipeline holds at once, over all its
        /// animations (``AnimatedImage``): one least-recently-used list, so any number of animations on screen never
        /// hold more; an evicted frame is decoded again when it is shown. 32 MiB by default.
        public var animationFrameBudget: Int = 32 << 20
        /// The most frames an ``ImageRequest/Options/animated`` request plays: a source with more gives its first
        /// frame only, as a still request does, and no other frame is decoded. No limit (`Int.max`) by default;
        /// ``maxFrameCount`` still refuses a source that declares more than it.
        public var maxPlayedFrameCount: Int = .max
        /// The most pixels an ``ImageRequest/Options/animated`` request's frames hold together at the size they are
        /// shown (frames × width × height): a source past it gives its first frame only, and no other frame is
        /// decoded. No limit (`Int.max`) by default.
        public var maxPlayedPixelCount: Int = .max
        /// Whether image URLs come from someone trusted; ``SourcePolicy/trusted`` by default. Under
        /// ``SourcePolicy/untrusted(allowedFileRoot:)`` the pipeline refuses non-public hosts (first URL and every
        /// redirect), other schemes and files outside the root, and clamps ``maxPixelCount``, ``maxFrameCount`` and
        /// the default loaders' byte limits (see ``SourcePolicy``).
        public var sourcePolicy: SourcePolicy = .trusted
        /// The formats an untrusted source's bytes may be decoded as (``DecodingOptions/untrustedFormats``);
        /// ``ImageFormat/untrustedDefault`` by default (add ``ImageFormat/svg`` to allow SVG). Unused when trusted.
        public var untrustedFormats: Set<ImageFormat> = ImageFormat.untrustedDefault
        /// Resolves host names for the untrusted-source checks; ``SystemHostResolver`` by default.
        public var hostResolver: any HostResolving = SystemHostResolver()
        /// Whether every response and finished ``ImageTask`` carries an ``ImageTaskMetrics`` (where the result
        /// came from, the time of each stage, the transfer, whether it joined another caller's job); `false` by
        /// default, and then nothing is measured for it (no clock reads, no allocations).
        public var collectsTaskMetrics = false
        /// Receives one-line diagnostics (for example "disk cache unavailable"); `nil` by default.
        public var onDiagnostic: (@Sendable (String) -> Void)?

        /// A configuration with the defaults above, `decoder`, and optionally a loader and an encoder.
        public init(
            decoder: any ImageDecoding, dataLoader: (any DataLoading)? = nil, encoder: (any ImageEncoding)? = nil
        ) {
            self.decoder = decoder
            self.dataLoader = dataLoader ?? SchemeRoutingDataLoader()
            self.encoder = encoder
            self.memoryCache = MemoryCache<ImageKey, DecodedImage>()
        }
    }
}
