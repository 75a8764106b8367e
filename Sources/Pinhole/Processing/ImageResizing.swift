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

    /// Whether a decode of `format` to a thumbnail already loads fewer pixels the smaller the thumbnail (a JPEG's
    /// DCT scaling, WebP's scaled decode): then ``ImagePipeline/images(for:sizes:)`` decodes each size from the
    /// bytes, which is cheaper than one large decode and resizes; otherwise it decodes once and resizes.
    ///
    /// Defaults to `false` (decode once, then resize with ``resize(_:to:)``).
    func shrinksOnLoad(_ format: ImageFormat) -> Bool
}

extension ImageResizing {
    /// `false`: without knowledge of the decoder, one decode and resizes is the safe choice.
    public func shrinksOnLoad(_ format: ImageFormat) -> Bool { false }
}
