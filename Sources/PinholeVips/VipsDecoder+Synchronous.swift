package import Foundation
package import Pinhole

extension VipsDecoder {
    /// Decodes `data` on the calling thread, blocking it until libvips is done.
    ///
    /// Not API: it exists so that `pinhole bench scroll --strategy naive` can reproduce the anti-pattern of
    /// decoding full-size images on the main actor at first draw (as `UIImage(data:)` defers its decode).
    /// Everything else must use ``decode(_:options:)``, which runs on ``pool``.
    ///
    /// - Returns: the same image ``decode(_:options:)`` returns for the same input.
    /// - Throws: the same ``PinholeError`` codes as ``decode(_:options:)`` (never `CancellationError`).
    package func decodeSynchronously(_ data: Data, options: DecodingOptions) throws -> DecodedImage {
        let format = try Self.sniffedFormat(data)
        return try Self.decodeUnderPolicy(
            data, format: format, options: options, jpegFastPath: jpegFastPath, shortcuts: shortcuts,
            interruption: nil, onDiagnostic: onDiagnostic)
    }
}
