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
    }

    /// The thumbnail (or full-size image): 8-bit sRGB, oriented for display.
    public var image: PixelImage
    /// Facts about the encoded source (format, full displayed size, orientation, frames).
    public var info: DecodedImage.SourceInfo
    /// Where it came from.
    public var source: Source

    public init(image: PixelImage, info: DecodedImage.SourceInfo, source: Source) {
        self.image = image
        self.info = info
        self.source = source
    }
}
