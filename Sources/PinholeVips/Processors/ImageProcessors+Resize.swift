public import Pinhole

extension ImageProcessors {
    /// Scales an image into a box with a content mode (fit, fill, or fill with a centre/attention/entropy crop),
    /// with libvips: `vips_thumbnail_image` (lanczos3) to exactly the layout's resized size, then `vips_smartcrop`.
    ///
    /// The sizes are ``ThumbnailOptions/layout(width:height:)`` of the input, exactly as a decode with the same
    /// ``ThumbnailOptions`` gives. Use it on images that are already decoded (a full-size image in hand, or a
    /// second size from a larger cached thumbnail); a request's own thumbnail is made while decoding
    /// (shrink-on-load), which is much cheaper.
    ///
    /// - Throws: ``PinholeError/Code/tooManyPixels`` when an upscaled result would pass
    ///   ``DecodingOptions/defaultMaxPixelCount``; ``PinholeError/Code/processingFailed`` with libvips' message.
    public struct Resize: ImageProcessing, Hashable {
        /// The box, content mode and upscaling rule.
        public var thumbnail: ThumbnailOptions

        /// - Parameter thumbnail: the box, content mode and upscaling rule.
        public init(_ thumbnail: ThumbnailOptions) {
            self.thumbnail = thumbnail
        }

        /// - Parameters:
        ///   - size: the box in pixels.
        ///   - contentMode: ``ThumbnailOptions/ContentMode/aspectFit`` by default.
        ///   - allowsUpscaling: `false` by default.
        public init(
            size: PixelSize, contentMode: ThumbnailOptions.ContentMode = .aspectFit, allowsUpscaling: Bool = false
        ) {
            self.init(ThumbnailOptions(size: size, contentMode: contentMode, allowsUpscaling: allowsUpscaling))
        }

        /// `pinhole.resize(W×H <mode>[+up])`, for example `pinhole.resize(200×200 fill-attention)`.
        public var identifier: String {
            let up = thumbnail.allowsUpscaling ? "+up" : ""
            return "pinhole.resize(\(thumbnail.size) \(thumbnail.contentMode)\(up))"
        }

        public func process(_ image: PixelImage) throws -> PixelImage {
            let layout = thumbnail.layout(width: image.width, height: image.height)
            let (pixels, overflow) = layout.resized.width.multipliedReportingOverflow(by: layout.resized.height)
            guard !overflow, pixels <= DecodingOptions.defaultMaxPixelCount else {
                throw PinholeError(
                    .tooManyPixels,
                    "resizing to \(layout.resized) is over the limit of \(DecodingOptions.defaultMaxPixelCount) pixels")
            }
            return try ImageProcessors.resize(image, to: layout)
        }
    }
}
