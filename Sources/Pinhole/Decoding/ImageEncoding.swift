public import Foundation

/// Turns a ``PixelImage`` into encoded bytes (JPEG, PNG or WebP).
///
/// Formats without alpha (JPEG) get transparent pixels flattened onto ``EncodingOptions/background``
/// (white by default), never implicit black. Metadata is not written.
///
/// - Throws: ``PinholeError`` with ``PinholeError/Code/encodingFailed`` or ``PinholeError/Code/unsupportedFormat``.
public protocol ImageEncoding: Sendable {
    /// Encodes `image` as `options` say. Safe from any isolation; blocking work runs off the cooperative pool.
    func encode(_ image: PixelImage, options: EncodingOptions) async throws -> Data
}

/// How to encode a thumbnail.
public struct EncodingOptions: Sendable, Hashable {
    /// `jpeg`, `png` or `webp`.
    public var format: ImageFormat
    /// 1…100 for JPEG and lossy WebP (80 by default); ignored for PNG.
    public var quality: Int
    /// The colour that transparent pixels are flattened onto when the format has no alpha; white by default.
    public var background: PixelImage.RGBA

    public init(
        format: ImageFormat = .jpeg, quality: Int = 80, background: PixelImage.RGBA = .init(r: 255, g: 255, b: 255)
    ) {
        self.format = format
        self.quality = min(100, max(1, quality))
        self.background = background
    }
}
