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
        return try readHeader(data, format: format).info
    }

    /// Whether the container of `data` says it ends early (see the truncation policy of ``VipsDecoder``).
    package static func containerLooksTruncatedForFuzzing(_ data: Data, format: ImageFormat) -> Bool {
        containerLooksTruncated(data, format: format)
    }
}
