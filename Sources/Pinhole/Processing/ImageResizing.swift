/// Shrinks an already decoded image to an exact thumbnail layout: the capability behind the pipeline's
/// size-aware memory lookup (a smaller size made from a larger cached image instead of a new download and decode).
///
/// A decoder that also conforms (``PinholeVips``'s `VipsDecoder`) lends the pipeline this capability; without it
/// the lookup is skipped. Implementations must give exactly ``ThumbnailOptions/Layout/output`` pixels: scale to
/// ``ThumbnailOptions/Layout/resized`` (aspect as given, no rounding of their own), then crop at
/// ``ThumbnailOptions/Layout/crop``.
public protocol ImageResizing: Sendable {
    /// Scales `image` to exactly `layout.resized`, then cuts `layout.output` out of it at `layout.crop`.
    ///
    /// Synchronous: the pipeline calls it on ``ImagePipeline/Configuration/processingPool``; may block.
    /// - Throws: ``PinholeError`` (``PinholeError/Code/processingFailed``).
    func resize(_ image: PixelImage, to layout: ThumbnailOptions.Layout) throws -> PixelImage

    /// Whether a decode of `format` to a thumbnail costs less the smaller the thumbnail (a JPEG's DCT scaling,
    /// WebP's scaled decode). ``ImagePipeline/images(for:sizes:)`` then decodes a smaller size on its own when
    /// the largest decode is too large a part of the source for a resize of it to be cheaper; for other formats
    /// it always resizes the largest decode with ``resize(_:to:)``.
    ///
    /// Defaults to `false`.
    func shrinksOnLoad(_ format: ImageFormat) -> Bool
}

extension ImageResizing {
    /// `false`: without knowledge of the decoder, one decode and resizes is the safe choice.
    public func shrinksOnLoad(_ format: ImageFormat) -> Bool { false }
}
