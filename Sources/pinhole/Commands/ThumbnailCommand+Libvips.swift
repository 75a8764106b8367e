import Foundation
import Pinhole
import PinholeVips

extension ThumbnailCommand.Codecs {
    /// The libvips decoder, encoder, contact-sheet maker and ThumbHash maker, all running on one pool of
    /// `threadCount` threads (so `--jobs N` also means at most N threads doing libvips work).
    /// `PINHOLE_JPEG_FAST_PATH=0` in the environment turns the TurboJPEG fast path off, `PINHOLE_JPEG_DC_ONLY=0` its
    /// DC-only decoding of progressive JPEGs at 1/8, `PINHOLE_JPEG_REFINEMENT_SKIPPING=0` their decoding without
    /// last-bit refinements at 1/4 (for A/B measurements, or exact pixels; see ``VipsDecoder``).
    static func libvips(threadCount: Int) -> ThumbnailCommand.Codecs {
        let pool = WorkerThreadPool(threadCount: threadCount, name: "pinhole-vips")
        let environment = ProcessInfo.processInfo.environment
        let decoder = VipsDecoder(
            pool: pool, jpegFastPath: environment["PINHOLE_JPEG_FAST_PATH"] != "0",
            progressiveDCOnly: environment["PINHOLE_JPEG_DC_ONLY"] != "0",
            progressiveRefinementSkipping: environment["PINHOLE_JPEG_REFINEMENT_SKIPPING"] != "0")
        return ThumbnailCommand.Codecs(
            decoder: decoder, encoder: VipsEncoder(pool: pool),
            makeContactSheet: { images, cellSize in try await ContactSheet.make(images, cellSize: cellSize, pool: pool)
            },
            makeThumbHash: { image in try await pool.run { try ThumbHash.make(from: image) } })
    }
}
