public import Pinhole

extension ImageProcessors {
    /// Blurs with a Gaussian of standard deviation ``sigma`` pixels (libvips `vips_gaussblur`): a placeholder
    /// look for a small thumbnail, or a frosted background.
    ///
    /// Output: the input's size and pixel format (alpha is blurred premultiplied: no dark fringes). A sigma of 0
    /// or less returns the input unchanged.
    ///
    /// - Throws: ``PinholeError/Code/processingFailed`` with libvips' message.
    public struct GaussianBlur: ImageProcessing, Hashable {
        /// Standard deviation in pixels (≥ 0).
        public var sigma: Double

        /// - Parameter sigma: standard deviation in pixels; 8 by default.
        public init(sigma: Double = 8) {
            self.sigma = max(0, sigma)
        }

        /// `pinhole.gaussianBlur(sigma=S)`.
        public var identifier: String { "pinhole.gaussianBlur(sigma=\(sigma))" }

        public func process(_ image: PixelImage) throws -> PixelImage {
            guard sigma > 0 else { return image }
            return try ImageProcessors.withVips(image, operation: "gaussian blur") { source, failure in
                try source.blurred(sigma: sigma, failure: failure)
            }
        }
    }
}
