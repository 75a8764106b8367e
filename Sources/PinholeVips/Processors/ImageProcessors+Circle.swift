public import Pinhole

extension ImageProcessors {
    /// Crops the largest centred square and makes everything outside its inscribed circle transparent (an
    /// avatar), anti-aliased over one pixel.
    ///
    /// Output: ``PixelImage/PixelFormat/rgba8`` (straight alpha), `min(width, height)` pixels square.
    /// Done by libvips (`vips_smartcrop` at the centre, then the mask of ``RoundedCorners`` at half the side).
    ///
    /// - Throws: ``PinholeError/Code/processingFailed`` with libvips' message.
    public struct Circle: ImageProcessing, Hashable {
        public init() {}

        /// `pinhole.circle`.
        public var identifier: String { "pinhole.circle" }

        public func process(_ image: PixelImage) throws -> PixelImage {
            let side = min(image.width, image.height)
            return try ImageProcessors.withVips(image, operation: "circle") { source, failure in
                try source.cropped(to: PixelSize(width: side, height: side), at: .centre, failure: failure)
                    .roundedCorners(radius: Double(side) / 2, failure: failure)
            }
        }
    }
}
