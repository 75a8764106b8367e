public import Foundation

/// "Show this URL at this size": what to load, how big, how to process it, how urgently, and which caches to use.
///
/// The URL is `http`, `https`, `file`, `data`, or a scheme with a loader in
/// ``ImagePipeline/Configuration/dataLoaders``; or the bytes are in hand (``data``). Two keys are derived:
/// - ``sourceKey`` names the original bytes (download, disk cache): the URL (or override) and a hash of the
///   request's headers;
/// - ``imageKey`` names the processed image (memory cache, encoded disk copy): source key + thumbnail (box and
///   content mode) + the processors' identifiers.
///
/// Identity (when two requests share work): two requests are the same image job when they have the same source
/// key, the same processing (``thumbnail`` and ``processors``) and the same cache access, and the same data job
/// (one download) when they have the same source key, headers, timeout and disk-cache access. The cache access is
/// what ``options`` say about where bytes may come from or go to: `reloadIgnoringCachedData` and
/// `disableDiskCacheReads` (no disk read), `disableDiskCacheWrites` (no disk write), `disableDiskCache` (neither),
/// `disableMemoryCacheWrites` (no memory write), `returnCacheDataDontLoad` (no load at all). ``priority`` is not part
/// of the identity: requests that differ only in priority share one job, which runs at the highest priority of its
/// callers. So a request never receives bytes its options forbid (a reload never gets a joined job's disk bytes) and
/// never changes what another caller asked for. Different sizes of one URL are different image jobs over one data job
/// (one download). Requests with one source key are taken to name the same bytes: a shared job fetches the URL of the
/// caller that started it.
public struct ImageRequest: Sendable, Hashable {
    /// How urgently the request is wanted. A job runs at the highest priority of its callers.
    public enum Priority: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        case veryLow = 0
        case low = 1
        case normal = 2
        case high = 3
        case veryHigh = 4

        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String {
            switch self {
            case .veryLow: "veryLow"
            case .low: "low"
            case .normal: "normal"
            case .high: "high"
            case .veryHigh: "veryHigh"
            }
        }
    }

    /// Cache behaviour for one request.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Do not read the memory cache (still writes it). Not part of the identity: such a request may join a job
        /// already running.
        public static let disableMemoryCacheReads = Options(rawValue: 1 << 0)
        /// Do not write the memory cache. Part of the identity (an image job either writes or does not).
        public static let disableMemoryCacheWrites = Options(rawValue: 1 << 1)
        /// Neither read nor write the disk cache. Part of the identity: such a request never joins a job that may
        /// read or write the disk.
        public static let disableDiskCache = Options(rawValue: 1 << 2)
        /// Skip both caches' reads, cached failures included (``ImagePipeline/Configuration/failureMemoryTTL``,
        /// ``DiskCacheFreshness``), and go to the source (results are still stored; a success replaces a stored
        /// failure). Part of the identity: such a request never joins a job that may answer from the disk cache.
        public static let reloadIgnoringCachedData = Options(rawValue: 1 << 3)
        /// Do not read the disk cache (still writes it). Part of the identity.
        public static let disableDiskCacheReads = Options(rawValue: 1 << 4)
        /// Do not write the disk cache (still reads it). Part of the identity.
        public static let disableDiskCacheWrites = Options(rawValue: 1 << 5)
        /// Offline: answer from the memory or disk cache only, never load from the source; a stale disk entry is
        /// used when HTTP allows it (``DiskCache/Metadata/mayAnswer(now:offline:)``, ``DiskCacheFreshness``).
        /// A miss fails with ``PinholeError/Code/notCached``. Part of the identity.
        public static let returnCacheDataDontLoad = Options(rawValue: 1 << 6)
        /// Emit low-resolution previews of a progressive JPEG while it downloads (``ImageTask/events``), each time
        /// another scan has arrived; previews are never cached as the final image. Not part of the identity: a
        /// task that joins a download started without previews gets none.
        public static let progressivePreviews = Options(rawValue: 1 << 7)
        /// Play animations: the response of an animated source (GIF, animated WebP) carries an
        /// ``ImageResponse/animation`` whose frames are decoded on demand (``AnimatedImage``), when the decoder is an
        /// ``AnimatedImageDecoding``. Off by default: the first frame only, a still. Part of the identity
        /// (``ImageKey/isAnimated``): an animated and a still request of one URL never share an image or a cache
        /// entry (they share the download).
        public static let animated = Options(rawValue: 1 << 8)
    }

    /// Where the bytes come from: `http`, `https`, `file`, `data`, or a scheme with a loader in
    /// ``ImagePipeline/Configuration/dataLoaders``. For ``init(id:data:thumbnail:processors:priority:options:)``,
    /// a `pinhole-data:` URL that names the bytes in hand.
    public var url: URL {
        didSet { sourceKey = Self.sourceKey(sourceKeyOverride, url: url, headers: headers) }
    }
    /// The thumbnail box, or `nil` for the full-size image.
    public var thumbnail: ThumbnailOptions?
    /// `normal` by default.
    public var priority: Priority
    /// Empty by default: both caches are read and written.
    public var options: Options
    /// Processors applied in order to the decoded image, on the CPU executor; their identifiers join
    /// ``imageKey``, and the memory cache holds their result. Empty by default.
    public var processors: [any ImageProcessing] {
        didSet { processing = ImageProcessors.identifier(of: processors) }
    }
    /// HTTP headers for this request only (for example `Authorization`), sent after the loader's own; a
    /// same-named header here wins. Every header joins ``sourceKey`` hashed, so the caches never give one user's
    /// (or one `Accept`'s) image to a request with other headers. After a redirect to another origin only harmless
    /// ones (`Accept`, `User-Agent`, validators…) are sent (``DataRequest/headers``). Empty by default.
    public var headers: [String: String] {
        didSet { sourceKey = Self.sourceKey(sourceKeyOverride, url: url, headers: headers) }
    }
    /// The whole transfer's deadline for this request; `nil` (the default) uses the loader's.
    public var timeout: Duration?
    /// A ThumbHash of the image (from a feed, or an earlier ``ThumbHash/init(encoding:)``) that an
    /// ``ImageSlot`` shows as its ``ImageSlot/placeholder`` while it loads; `nil` by default. Not part of the
    /// identity: it changes nothing the pipeline loads or caches.
    public var placeholder: ThumbHash?
    /// The encoded bytes, for a request made with ``init(id:data:thumbnail:processors:priority:options:)``
    /// (nothing is loaded); `nil` otherwise.
    public let data: Data?
    private let sourceKeyOverride: String?
    /// The key of the original bytes: the override if one was given, else the URL's absolute string with the
    /// query kept and the fragment removed; followed by `#headers=` and a 128-bit hash of the headers when
    /// there are any. Computed once (URL → string is costly on Linux), on the hit path.
    public private(set) var sourceKey: String
    /// ``ImageProcessors/identifier(of:)`` of ``processors`` (`""` for none), computed once for the hit path.
    public private(set) var processing: String

    /// - Parameters:
    ///   - url: an `http`, `https` or `file` URL.
    ///   - thumbnail: the box to fit; `nil` decodes full size.
    ///   - priority: `normal` by default.
    ///   - options: cache behaviour; none by default.
    ///   - sourceKey: overrides the key of the original bytes, for URLs that change while the image does not
    ///     (signed URLs, tokens in the query). By default it is the URL's absolute string without its fragment.
    ///   - processors: applied in order after decoding; none by default.
    ///   - headers: HTTP headers for this request only; none by default.
    ///   - timeout: the transfer's deadline; the loader's by default.
    public init(
        url: URL,
        thumbnail: ThumbnailOptions? = nil,
        priority: Priority = .normal,
        options: Options = [],
        sourceKey: String? = nil,
        processors: [any ImageProcessing] = [],
        headers: [String: String] = [:],
        timeout: Duration? = nil
    ) {
        self.init(
            url: url, data: nil, thumbnail: thumbnail, priority: priority, options: options, sourceKey: sourceKey,
            processors: processors, headers: headers, timeout: timeout)
    }

    init(
        url: URL, data: Data?, thumbnail: ThumbnailOptions?, priority: Priority, options: Options,
        sourceKey: String?, processors: [any ImageProcessing], headers: [String: String], timeout: Duration?
    ) {
        self.url = url
        self.data = data
        self.thumbnail = thumbnail
        self.priority = priority
        self.options = options
        self.sourceKeyOverride = sourceKey
        self.processors = processors
        self.headers = headers
        self.timeout = timeout
        self.sourceKey = Self.sourceKey(sourceKey, url: url, headers: headers)
        self.processing = ImageProcessors.identifier(of: processors)
    }

    /// A request for a thumbnail whose longest side is `maxPixelSize` pixels.
    public init(url: URL, maxPixelSize: Int, priority: Priority = .normal, options: Options = []) {
        self.init(
            url: url, thumbnail: ThumbnailOptions(maxPixelSize: maxPixelSize), priority: priority, options: options)
    }

    /// The key of the processed image: source key + thumbnail box + processors.
    public var imageKey: ImageKey {
        ImageKey(
            sourceKey: sourceKey, thumbnail: thumbnail, processing: processing,
            isAnimated: options.contains(.animated))
    }

    /// The URL's absolute string without its fragment (`#…`); the query stays.
    public static func defaultSourceKey(for url: URL) -> String {
        let string = url.absoluteString
        guard let hash = string.firstIndex(of: "#") else { return string }
        return String(string[..<hash])
    }
}

/// Identifies a processed image: the source key plus the processing (thumbnail box and content mode, then the
/// processors' identifiers). Used by the memory cache, the disk cache of encoded thumbnails and image-job
/// coalescing.
public struct ImageKey: Sendable, Hashable, CustomStringConvertible {
    /// The key of the original bytes.
    public let sourceKey: String
    /// The thumbnail box, or `nil` for full size.
    public let thumbnail: ThumbnailOptions?
    /// ``ImageProcessors/identifier(of:)`` of the request's processors; `""` for none.
    public let processing: String
    /// Whether the image may be an animation (``ImageRequest/Options/animated``); `false` for the still first frame.
    public let isAnimated: Bool

    public init(sourceKey: String, thumbnail: ThumbnailOptions?, processing: String = "", isAnimated: Bool = false) {
        self.sourceKey = sourceKey
        self.thumbnail = thumbnail
        self.processing = processing
        self.isAnimated = isAnimated
    }

    public var description: String {
        "\(sourceKey) @\(thumbnail?.description ?? "full")" + (processing.isEmpty ? "" : " | \(processing)")
            + (isAnimated ? " [animated]" : "")
    }
}
