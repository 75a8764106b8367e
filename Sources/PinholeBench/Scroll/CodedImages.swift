import Foundation
import Pinhole
import PinholeShared
import PinholeVips

/// The JPEGs the scroll reproduction's server hands out: for URL `/img/<row>?v=<generation>`, the square photo
/// of row `row % count` with that URL's ``ScrollImageCode`` painted over its top half, as JPEG quality 80 (4:2:0).
///
/// Images are encoded once by TurboJPEG (about 2 ms for 600 × 600 pixels) and kept. ``prepare(rows:generation:)``
/// makes them before a run (every generation the script can ask for, with refreshes), so that nothing is encoded
/// while the run is measured; one missed is encoded on first request (``encodedCount`` shows it). Thread-safe: the
/// server asks from its connection threads.
final class CodedImages: Sendable {
    private let squares: [PixelImage]
    private let cache = Locked<[ScrollImageCode: Data]>([:])

    /// Distinct images encoded so far.
    var encodedCount: Int { cache.withLock { $0.count } }

    /// - Parameter squares: the photos (8-bit RGB), row `r` shows `squares[r % squares.count]`.
    init(squares: [PixelImage]) {
        self.squares = squares
    }

    /// The JPEG of `code`'s row and generation.
    ///
    /// - Throws: ``PinholeError/Code/encodingFailed`` with TurboJPEG's message.
    func jpeg(for code: ScrollImageCode) throws -> Data {
        if let cached = cache.withLock({ $0[code] }) { return cached }
        var square = squares[code.row % squares.count]
        code.paint(&square)
        let jpeg = try Self.encode(square)
        cache.withLock { $0[code] = jpeg }
        return jpeg
    }

    /// Encodes the images of `rows` at `generation` ahead of a run, on ``WorkerThreadPool/cpu``.
    func prepare(rows: Range<Int>, generation: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            let threads = WorkerThreadPool.cpu.threadCount
            for shard in 0..<threads {
                group.addTask { [self] in
                    try await WorkerThreadPool.cpu.run { [self] in
                        for row in stride(from: rows.lowerBound + shard, to: rows.upperBound, by: threads) {
                            _ = try jpeg(for: ScrollImageCode(row: row, generation: generation))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// JPEG, quality 80 (libvips: 4:2:0 below quality 90), from 8-bit RGB.
    static func encode(_ image: PixelImage) throws -> Data {
        try VipsEncoder.encodeSynchronously(image, options: EncodingOptions(format: .jpeg, quality: 80))
    }
}
