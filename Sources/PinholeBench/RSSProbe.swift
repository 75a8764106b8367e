import Foundation
import Pinhole
import PinholeShared
import PinholeVips

/// Measures the memory one thumbnail costs: meant to run alone in a fresh process (`pinhole bench rss FILE`),
/// so the process's peak RSS is that of libvips' setup plus this one decode and encode.
public enum RSSProbe {
    /// What one probe measured, printed as JSON by the child and read back by the benchmark.
    public struct Result: Sendable, Codable, Hashable {
        /// The file that was thumbnailed.
        public var file: String
        /// Its full size in pixels, as displayed.
        public var width: Int
        public var height: Int
        /// The thumbnail's size in pixels.
        public var thumbnailWidth: Int
        public var thumbnailHeight: Int
        /// Resident set size before reading the file, in bytes (libvips initialised).
        public var residentBytesBefore: Int
        /// Peak resident set size of the process after the thumbnail was made, in bytes.
        public var peakResidentBytes: Int
    }

    /// Reads `path`, makes a `size`-pixel thumbnail and encodes it as JPEG q80, on one worker thread; reports the
    /// process's peak RSS.
    ///
    /// - Throws: ``PinholeError`` when the file cannot be read or decoded.
    public static func measure(path: String, size: Int = 360) async throws -> Result {
        let pool = WorkerThreadPool(threadCount: 1, name: "pinhole-rss")
        _ = Vips.version  // initialise libvips before the baseline is taken
        let before = ProcessStats.residentBytes()
        let data = try await WorkerThreadPool.io.run {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw PinholeError(.fileNotFound, "cannot read \(path)")
            }
            return data
        }
        let decoded = try await VipsDecoder(pool: pool)
            .decode(data, options: DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: size)))
        let encoded = try await VipsEncoder(pool: pool).encode(decoded.image, options: EncodingOptions(format: .jpeg))
        blackHole(encoded.count)
        return Result(
            file: path, width: decoded.info.width, height: decoded.info.height, thumbnailWidth: decoded.image.width,
            thumbnailHeight: decoded.image.height, residentBytesBefore: before,
            peakResidentBytes: ProcessStats.peakResidentBytes())
    }

    /// Writes a 1×1 baseline JPEG to `path`: the reference image whose peak RSS the others are compared with.
    public static func writeOnePixelJPEG(to path: String) async throws {
        let pixel = PixelImage(width: 1, height: 1, pixelFormat: .rgb8, pixels: [128, 128, 128])
        let data = try await VipsEncoder(pool: .cpu).encode(pixel, options: EncodingOptions(format: .jpeg))
        try await WorkerThreadPool.io.run { try data.write(to: URL(fileURLWithPath: path)) }
    }
}

/// Keeps a result alive so the optimiser cannot remove the work that made it.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
