/// A loaded image and where it came from.
public struct ImageResponse: Sendable, Hashable {
    /// Where the result came from.
    public enum Source: String, Sendable, Hashable, Codable {
        /// The memory cache: no decode happened.
        case memoryCache
        /// Original bytes from the disk cache (fresh, or revalidated with `304 Not Modified`), decoded now.
        case diskCache
        /// Downloaded now, then decoded.
        case network
        /// Read from a local file, then decoded.
        case file
        /// Bytes given with the request (``ImageRequest/init(id:data:thumbnail:processors:priority:options:)``) or
        /// carried by a `data:` URL, decoded now.
        case providedData
    }

    /// The thumbnail (or full-size image): 8-bit sRGB, oriented for display.
    public var image: PixelImage
    /// Facts about the encoded source (format, full displayed size, orientation, frames).
    public var info: DecodedImage.SourceInfo
    /// Where it came from.
    public var source: Source
    /// The animation to play, for an ``ImageRequest/Options/animated`` request of an animated source; ``image`` is
    /// its first frame. `nil` for stills and for requests without the option.
    public var animation: AnimatedImage?
    /// The request this answers (a caller that joined a shared job gets its own request here).
    public var request: ImageRequest
    /// Where this request's time went (``ImageTaskMetrics``); `nil` unless the pipeline collects task metrics
    /// (``ImagePipeline/Configuration/collectsTaskMetrics``).
    public var metrics: ImageTaskMetrics? {
        get { metricsBox?.value }
        set { metricsBox = newValue.map(MetricsBox.init) }
    }
    /// Boxed, so that a response without metrics (the memory-cache hit path) stays one word larger, not a whole
    /// record larger.
    private var metricsBox: MetricsBox?

    public init(
        image: PixelImage, info: DecodedImage.SourceInfo, source: Source, request: ImageRequest,
        animation: AnimatedImage? = nil
    ) {
        self.image = image
        self.info = info
        self.source = source
        self.request = request
        self.animation = animation
    }
}

/// An immutable ``ImageTaskMetrics`` behind a reference, compared by value.
private final class MetricsBox: Sendable, Hashable {
    let value: ImageTaskMetrics

    init(_ value: ImageTaskMetrics) { self.value = value }

    static func == (lhs: MetricsBox, rhs: MetricsBox) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
