public import Pinhole

extension ImageProcessors {
    /// Keeps luminance only (libvips `vips_colourspace` to `B_W`: the CIE Y of the sRGB colour, re-encoded).
    ///
    /// Output: ``PixelImage/PixelFormat/gray8``, or ``PixelImage/PixelFormat/rgba8`` with r = g = b when the input
    /// has alpha (kept as it is).
    ///
    /// - Throws: ``PinholeError/Code/processingFailed`` with libvips' message.
    public struct Greyscale: ImageProcessing, Hashable {
        public init() {}

        /// `pinhole.greyscale`.
        public var identifier: String { "pinhole.greyscale" }

        public func process(_ image: PixelImage) throws -> PixelImage {
            guard image.pixelFormat != .gray8 else { return image }
            return try ImageProcessors.withVips(image, operation: "greyscale") { source, failure in
                try source.greyscale(failure: failure)
            }
        }
    }
}
