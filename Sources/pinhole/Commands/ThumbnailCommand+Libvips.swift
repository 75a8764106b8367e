import Pinhole
import PinholeVips

extension ThumbnailCommand.Codecs {
    /// The libvips decoder, encoder and contact-sheet maker, all running on one pool of `threadCount` threads
    /// (so `--jobs N` also means at most N threads doing libvips work).
    static func libvips(threadCount: Int) -> ThumbnailCommand.Codecs {
        let pool = WorkerThreadPool(threadCount: threadCount, name: "pinhole-vips")
        return ThumbnailCommand.Codecs(decoder: VipsDecoder(pool: pool), encoder: VipsEncoder(pool: pool)) {
            images, cellSize in
            try await ContactSheet.make(images, cellSize: cellSize, pool: pool)
        }
    }
}
