public import Pinhole

/// The libvips decoder lends the pipeline its resizer: the size-aware memory lookup shrinks a larger cached image
/// with it (``ImageResizing``), with the same kernel and crop as a decode.
extension VipsDecoder: ImageResizing {
    /// Scales `image` to exactly `layout.resized` (lanczos3, as `vips_thumbnail`), then crops to `layout.output`
    /// at `layout.crop` (`vips_smartcrop`). Synchronous: call on a worker thread.
    ///
    /// - Throws: ``PinholeError/Code/processingFailed`` with libvips' message.
    public func resize(_ image: PixelImage, to layout: ThumbnailOptions.Layout) throws -> PixelImage {
        try ImageProcessors.resize(image, to: layout)
    }
}

extension ImageProcessors {
    /// `image` scaled to exactly `layout.resized`, then cropped to `layout.output` at `layout.crop`.
    static func resize(_ image: PixelImage, to layout: ThumbnailOptions.Layout) throws -> PixelImage {
        guard layout.resized != PixelSize(width: image.width, height: image.height) || layout.crop != nil else {
            return image
        }
        return try withVips(image, operation: "resize to \(layout)") { source, failure in
            try source.resized(to: layout.resized, failure: failure).cropped(to: layout, failure: failure)
        }
    }
}
