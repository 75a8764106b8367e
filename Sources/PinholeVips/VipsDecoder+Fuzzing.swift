package import Foundation
package import Pinhole

extension VipsDecoder {
    /// Reads the header on the calling thread, as ``readInfo(_:)`` does, for the fuzz target (`Sources/PinholeFuzz`),
    /// which must stay single-threaded and repeatable. Blocks the caller: never call it from Swift's cooperative pool.
    ///
    /// - Throws: the same ``PinholeError`` codes as ``readInfo(_:)``.
    package static func readInfoSynchronously(_ data: Data) throws -> DecodedImage.SourceInfo {
        let format = try sniffedFormat(data)
        try Vips.ensureInitialized()
        return try withLoaderPolicy(data, format: format, untrustedFormats: nil, interruption: nil) {
            try readHeader(data, format: format).info
        }
    }

    /// Asks the decoder of `format` whether `data` ends before its image does (the truncation evidence of
    /// ``VipsDecoder``: giflib, libwebpdemux, libheif, or a libvips loader on a source of our own); `true` when it
    /// does. Decodes once more for JPEG, PNG, TIFF and HEIF, at most `maxPixelCount` pixels.
    package static func truncationEvidenceForFuzzing(_ data: Data, format: ImageFormat, maxPixelCount: Int) -> Bool {
        truncationEvidence(data, format: format, interruption: nil, maxPixelCount: maxPixelCount) == .endsEarly
    }
}
