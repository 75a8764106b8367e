public import Pinhole

extension ImageProcessors {
    /// Makes the corners transparent: a rounded rectangle of ``radius`` pixels, anti-aliased over one pixel.
    ///
    /// Output: ``PixelImage/PixelFormat/rgba8`` (straight alpha), same size as the input. An input with alpha
    /// keeps it, multiplied by the mask; colour values are not changed. The radius is clamped to half the shorter
    /// side; below 0.5 px every pixel stays opaque. Done by libvips (a distance mask from `vips_xyz`).
    ///
    /// - Throws: ``PinholeError/Code/processingFailed`` with libvips' message.
    public struct RoundedCorners: ImageProcessing, Hashable {
        /// The corner radius in pixels.
        public var radius: Double

        /// - Parameters:
        ///   - radius: the corner radius in points.
        ///   - scale: pixels per point; 1 by default (the radius is then in pixels).
        public init(radius: Double, scale: Double = 1) {
            self.radius = max(0, radius * scale)
        }

        /// `pinhole.roundedCorners(radius=R)` with the radius in pixels.
        public var identifier: String { "pinhole.roundedCorners(radius=\(radius))" }

        public func process(_ image: PixelImage) throws -> PixelImage {
            try ImageProcessors.withVips(image, operation: "rounded corners") { source, failure in
                try source.roundedCorners(radius: radius, failure: failure)
            }
        }
    }
}
