public import Foundation

/// Turns encoded bytes into a display-ready thumbnail: decode and downsample in one step.
///
/// Implementations (``PinholeVips/VipsDecoder`` on Linux) must:
/// - pick the codec from magic bytes (``ImageFormat/sniff(_:)``), not from names or headers;
/// - check ``DecodingOptions/maxPixelCount`` from the header *before* decoding pixels;
/// - shrink on load to exactly ``ThumbnailOptions/layout(width:height:)`` of the displayed size (after EXIF
///   orientation): the box and content mode, cropped as the layout says, never upscaling unless
///   ``ThumbnailOptions/allowsUpscaling``;
/// - honour ``DecodingOptions/allowsTruncatedData`` (previews only);
/// - apply EXIF orientation, convert to 8-bit sRGB, keep alpha, and give the first frame of animations;
/// - run blocking work on their own bounded threads, never on Swift's cooperative pool, and check
///   cancellation before and after it.
///
/// - Throws: ``PinholeError`` (``PinholeError/Code/emptyData``, ``PinholeError/Code/notAnImage``,
///   ``PinholeError/Code/unsupportedFormat``, ``PinholeError/Code/truncated``,
///   ``PinholeError/Code/tooManyPixels``, ``PinholeError/Code/decodingFailed``,
///   ``PinholeError/Code/decodingTimedOut``), or `CancellationError`.
public protocol ImageDecoding: Sendable {
    /// Decodes `data` into a thumbnail as `options` say. Safe to call from any isolation.
    func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage
}

/// How to decode: the thumbnail box and the limits.
public struct DecodingOptions: Sendable, Hashable {
    /// 100 megapixels: the default input pixel limit.
    public static let defaultMaxPixelCount = 100_000_000
    /// 1 gigapixel over all frames: the default animation pixel limit.
    public static let defaultMaxAnimationPixelCount = 1_000_000_000

    /// The thumbnail to make, or `nil` for a full-size decode.
    public var thumbnail: ThumbnailOptions?
    /// The most pixels (width × height of one frame, as the header declares) that will be decoded;
    /// larger inputs fail with ``PinholeError/Code/tooManyPixels`` before any pixel is decoded.
    /// 100,000,000 by default.
    public var maxPixelCount: Int
    /// The most frames an animation may declare; 1,000 by default. Only the first is decoded, unless an
    /// ``AnimatedImageDecoding`` decoder is asked for frames.
    public var maxFrameCount: Int
    /// The most pixels an animation may declare over all its frames (canvas width × height × frames, before any
    /// shrink); 1,000,000,000 by default. Checked on the header by ``AnimatedImageDecoding``, before any frame is
    /// decoded: ``PinholeError/Code/tooManyPixels``.
    public var maxAnimationPixelCount: Int
    /// Decode what is there when the data ends early (the missing part grey, or a progressive JPEG's later scans
    /// left out) instead of failing with ``PinholeError/Code/truncated``; `false` by default. Only for previews:
    /// such a result must never be cached as the image.
    public var allowsTruncatedData: Bool
    /// `nil` (the default) trusts the bytes: any format the decoder reads. Otherwise the bytes come from an
    /// untrusted source (``SourcePolicy/untrusted(allowedFileRoot:)``) and may be decoded only as one of these
    /// formats (``ImageFormat/untrustedDefault`` unless the caller asks for more, such as ``ImageFormat/svg``):
    /// anything else fails with ``PinholeError/Code/unsupportedFormat``, and the decoder confines itself (only the
    /// codec of the sniffed format runs; codecs its library marks unsafe for untrusted input are switched off).
    public var untrustedFormats: Set<ImageFormat>?

    public init(
        thumbnail: ThumbnailOptions? = nil,
        maxPixelCount: Int = DecodingOptions.defaultMaxPixelCount,
        maxFrameCount: Int = 1000,
        maxAnimationPixelCount: Int = DecodingOptions.defaultMaxAnimationPixelCount,
        allowsTruncatedData: Bool = false,
        untrustedFormats: Set<ImageFormat>? = nil
    ) {
        self.thumbnail = thumbnail
        self.maxPixelCount = maxPixelCount
        self.maxFrameCount = maxFrameCount
        self.maxAnimationPixelCount = maxAnimationPixelCount
        self.allowsTruncatedData = allowsTruncatedData
        self.untrustedFormats = untrustedFormats
    }
}

/// A decoded image and what is known about its source.
public struct DecodedImage: Sendable, Hashable {
    /// The pixels (8-bit sRGB, oriented for display).
    public var image: PixelImage
    /// Facts about the encoded source.
    public var info: SourceInfo
    /// The animation, for an ``ImageRequest/Options/animated`` request of an animated source (``image`` is its first
    /// frame then); `nil` otherwise. Decoders leave it `nil`: the pipeline makes it.
    public var animation: AnimatedImage?

    public init(image: PixelImage, info: SourceInfo, animation: AnimatedImage? = nil) {
        self.image = image
        self.info = info
        self.animation = animation
    }

    /// The bytes it takes in a memory cache: the pixels, and an animation's encoded bytes.
    public var cost: Int { image.cost + (animation?.encodedByteCount ?? 0) }

    /// Facts about an encoded image, read from its header.
    public struct SourceInfo: Sendable, Hashable {
        /// The format found from the magic bytes.
        public var format: ImageFormat
        /// Full-size width in pixels as displayed (after EXIF orientation).
        public var width: Int
        /// Full-size height in pixels as displayed (after EXIF orientation).
        public var height: Int
        /// The EXIF orientation that was applied (1…8; 1 when none).
        public var orientation: Int
        /// Frames (pages) in the file; 1 for still images.
        public var frameCount: Int

        public init(format: ImageFormat, width: Int, height: Int, orientation: Int = 1, frameCount: Int = 1) {
            self.format = format
            self.width = width
            self.height = height
            self.orientation = orientation
            self.frameCount = frameCount
        }
    }
}
