package import Foundation
package import Pinhole

extension VipsEncoder {
    /// Encodes `image` on the calling thread, blocking it until libvips is done. Not API: for the stage profile of
    /// `pinhole bench thumbnail --stages`, which times each stage on one worker thread. Everything else must use
    /// ``encode(_:options:)``, which runs on ``pool``.
    ///
    /// - Throws: the ``PinholeError`` codes of ``encode(_:options:)`` (never `CancellationError`).
    package static func encodeSynchronously(_ image: PixelImage, options: EncodingOptions) throws -> Data {
        guard [ImageFormat.jpeg, .png, .webp].contains(options.format) else {
            throw PinholeError(.unsupportedFormat, "cannot encode \(options.format.name)")
        }
        return try encodeNow(image, options: options)
    }
}
