public import Foundation

/// "Show this URL at this size": what to load, how big, how urgently, and which caches to use.
///
/// The URL is `http`, `https` or `file`. Two keys are derived from a request:
/// - ``sourceKey`` names the original bytes (download, disk cache);
/// - ``imageKey`` names the processed image (memory cache): source key + thumbnail.
///
/// Identity (when two requests share work): two requests are the same image job when they have the same source
/// key, the same processing (``thumbnail``) and the same cache policy, and the same data job (one download) when
/// they have the same source key and the same disk-cache policy. The cache policy is what ``options`` say about
/// where bytes may come from or go to: `reloadIgnoringCachedData` (no disk read), `disableDiskCache` (no disk read
/// or write), `disableMemoryCacheWrites` (no memory write). ``priority`` is not part of the identity: requests that
/// differ only in priority share one job, which runs at the highest priority of its callers. So a request never
/// receives bytes its options forbid (a reload never gets a joined job's disk bytes) and never changes what another
/// caller asked for. Different sizes of one URL are different image jobs over one data job (one download).
/// Requests with one source key are taken to name the same bytes: a shared job fetches the URL of the caller that
/// started it.
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
        /// Skip both caches' reads and go to the source (results are still stored). Part of the identity: such a
        /// request never joins a job that may answer from the disk cache.
        public static let reloadIgnoringCachedData = Options(rawValue: 1 << 3)
    }

    /// Where the bytes come from: `http`, `https` or `file`.
    public var url: URL {
        didSet { sourceKey = sourceKeyOverride ?? Self.defaultSourceKey(for: url) }
    }
    /// The thumbnail box, or `nil` for the full-size image.
    public var thumbnail: ThumbnailOptions?
    /// `normal` by default.
    public var priority: Priority
    /// Empty by default: both caches are read and written.
    public var options: Options
    private let sourceKeyOverride: String?
    /// The key of the original bytes: the override if one was given, else the URL's absolute string with the
    /// query kept and the fragment removed. Computed once (URL → string is costly on Linux), on the hit path.
    public private(set) var sourceKey: String

    /// - Parameters:
    ///   - url: an `http`, `https` or `file` URL.
    ///   - thumbnail: the box to fit; `nil` decodes full size.
    ///   - priority: `normal` by default.
    ///   - options: cache behaviour; none by default.
    ///   - sourceKey: overrides the key of the original bytes, for URLs that change while the image does not
    ///     (signed URLs, tokens in the query). By default it is the URL's absolute string without its fragment.
    public init(
        url: URL,
        thumbnail: ThumbnailOptions? = nil,
        priority: Priority = .normal,
        options: Options = [],
        sourceKey: String? = nil
    ) {
        self.url = url
        self.thumbnail = thumbnail
        self.priority = priority
        self.options = options
        self.sourceKeyOverride = sourceKey
        self.sourceKey = sourceKey ?? Self.defaultSourceKey(for: url)
    }

    /// A request for a thumbnail whose longest side is `maxPixelSize` pixels.
    public init(url: URL, maxPixelSize: Int, priority: Priority = .normal) {
        self.init(url: url, thumbnail: ThumbnailOptions(maxPixelSize: maxPixelSize), priority: priority)
    }

    /// The key of the processed image: source key + thumbnail box.
    public var imageKey: ImageKey { ImageKey(sourceKey: sourceKey, thumbnail: thumbnail) }

    /// The URL's absolute string without its fragment (`#…`); the query stays.
    public static func defaultSourceKey(for url: URL) -> String {
        let string = url.absoluteString
        guard let hash = string.firstIndex(of: "#") else { return string }
        return String(string[..<hash])
    }
}

/// Identifies a processed image: the source key plus the processing (thumbnail box).
/// Used by the memory cache and by image-job coalescing.
public struct ImageKey: Sendable, Hashable, CustomStringConvertible {
    /// The key of the original bytes.
    public let sourceKey: String
    /// The thumbnail box, or `nil` for full size.
    public let thumbnail: ThumbnailOptions?

    public init(sourceKey: String, thumbnail: ThumbnailOptions?) {
        self.sourceKey = sourceKey
        self.thumbnail = thumbnail
    }

    public var description: String { "\(sourceKey) @\(thumbnail?.description ?? "full")" }
}
