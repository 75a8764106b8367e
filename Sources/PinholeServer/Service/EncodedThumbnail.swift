public import Foundation
public import Pinhole

/// One encoded answer: the bytes, their format and validators, and where the image came from.
public struct EncodedThumbnail: Sendable {
    /// The encoded image.
    public var body: Data
    /// Its format.
    public var format: OutputFormat
    /// A strong entity tag (quoted): the body's length and 64-bit FNV-1a hash, in hex.
    public var etag: String
    /// When the bytes were encoded (to the second).
    public var lastModified: Date
    /// Where the pipeline found the image (`memoryCache`, `diskCache`, `network`).
    public var imageSource: ImageResponse.Source
    /// The image's size in pixels (one frame's, for an animation).
    public var size: PixelSize
    /// `false` for an animation whose source ended early: the whole frames only, never cached (`no-store`).
    public var isComplete = true
}

/// The identity of one encoded answer: the image (source, box, processing) and how it is encoded. The format
/// part is either the one asked for or the pair negotiated from `Accept` (for an opaque image, for one with
/// alpha), so two `Accept` headers that lead to the same answers share one entry.
struct EncodedThumbnailKey: Sendable, Hashable {
    enum FormatChoice: Sendable, Hashable {
        case explicit(OutputFormat)
        case negotiated(opaque: OutputFormat, alpha: OutputFormat)

        func format(hasAlpha: Bool) -> OutputFormat {
            switch self {
            case .explicit(let format): format
            case .negotiated(let opaque, let alpha): hasAlpha ? alpha : opaque
            }
        }
    }

    var image: ImageKey
    var format: FormatChoice
    /// The format of the answer when the source is animated (``ProcessingOptions/animated``, and a format that
    /// can animate asked or negotiated); `nil` for a still answer.
    var animation: OutputFormat?
    var quality: Int

    /// Bytes the key itself holds in a cache (its source key and processing text, and a fixed overhead): a URL
    /// can make them far larger than the answer (a 1×1 image behind a long cachebuster).
    var memoryCost: Int { image.sourceKey.utf8.count + image.processing.utf8.count + 128 }
}
