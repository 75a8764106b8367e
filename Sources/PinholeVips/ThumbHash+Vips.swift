public import Pinhole

extension ThumbHash {
    /// The hash of `image` at any size: shrunk by libvips (lanczos3, aspect kept) to fit
    /// ``ThumbHash/maxEncodedSide`` × ``ThumbHash/maxEncodedSide`` first when larger. Synchronous and CPU-bound
    /// (a few milliseconds): call on a worker thread, as a decoder does.
    ///
    /// - Throws: ``PinholeError/Code/processingFailed`` with libvips' message when the resize fails.
    public static func make(from image: PixelImage) throws -> ThumbHash {
        let side = ThumbHash.maxEncodedSide
        guard image.width > side || image.height > side else { return try ThumbHash(encoding: image) }
        let layout = ThumbnailOptions(maxPixelSize: side).layout(width: image.width, height: image.height)
        return try ThumbHash(encoding: try ImageProcessors.resize(image, to: layout))
    }
}
