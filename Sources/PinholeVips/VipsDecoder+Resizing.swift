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

    /// `true` for JPEG and WebP: a JPEG thumbnail loads at a DCT scale (TurboJPEG's scaled decode on the fast
    /// path, `jpegload`'s `shrink` otherwise: VipsDecoder+JPEGShrink.swift) and a WebP one at libwebp's scaled
    /// decode (`webpload`'s `scale`, picked by `vips_thumbnail`), so a small size costs a fraction of a large one.
    /// PNG, GIF, TIFF, HEIF and AVIF decode every pixel whatever the size: `false`.
    public func shrinksOnLoad(_ format: ImageFormat) -> Bool {
        format == .jpeg || format == .webp
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
