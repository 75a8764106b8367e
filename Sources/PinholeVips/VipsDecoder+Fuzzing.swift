package import Foundation
package import Pinhole

extension VipsDecoder {
    /// The whole decode on the calling thread: sniffing, header checks, limits and the libvips thumbnail.
    ///
    /// For the fuzz target (`Sources/PinholeFuzz`), which must stay single-threaded and deterministic: no
    /// worker pool, no task, no cancellation checks. Blocks the caller for as long as libvips works, so never
    /// call it from Swift's cooperative pool; ``decode(_:options:)`` is the entry point for everything else.
    ///
    /// - Returns: the same image ``decode(_:options:)`` returns for `data` and `options`.
    /// - Throws: the same ``PinholeError`` codes as ``decode(_:options:)`` (never `CancellationError`).
    package static func decodeSynchronously(_ data: Data, options: DecodingOptions) throws -> DecodedImage {
        let format = try sniffedFormat(data)
        return try decodeNow(data, format: format, options: options)
    }

    /// Reads the header on the calling thread, as ``readInfo(_:)`` does; same rules as
    /// ``decodeSynchronously(_:options:)``.
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
