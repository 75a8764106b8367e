import Dispatch
import Foundation
import Pinhole
import PinholeVips

// `Data(contentsOf:)` reaches http URLs only when FoundationNetworking is linked; since Pinhole's loader moved to
// libcurl nothing else links it, and every naive download failed at once (0 requests reached the server).
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The seeds' "before", reproduced on purpose: every anti-pattern of DESIGN.md §1 in one list.
///
/// - On appear: `DispatchQueue.global().async { Data(contentsOf: url) }` — a blocking download that parks a
///   GCD thread per row (libdispatch on Linux adds a thread a second to a blocked pool, up to 255);
/// - back on `DispatchQueue.main.async`, the image is set on the *cell* that asked, with no cancellation and no
///   check that the cell still shows that URL (so reused cells and refreshed rows get stale images);
/// - an unbounded cache of full-size images keyed by URL;
/// - the image is decoded at full size, synchronously, on the main actor at its first draw (as
///   `UIImage(data:)` defers decoding to the first draw).
///
/// Never copy this code: it exists to be measured against ``PinholeRows``.
@MainActor
final class NaiveRows: ScrollRowStrategy {
    /// A "UIImage": the downloaded bytes, decoded lazily at first draw.
    final class NaiveImage {
        let url: URL
        let data: Data
        var decoded: PixelImage?

        init(url: URL, data: Data) {
            self.url = url
            self.data = data
        }
    }

    private let ledger: ScrollLedger
    private let downloads: DownloadLog
    private let decoder = VipsDecoder()
    /// ANTI-PATTERN (deliberate): unbounded, full-size, never evicted.
    private var cache: [URL: NaiveImage] = [:]
    private var cellImages: [NaiveImage?]
    /// Cells given an image that has not been drawn there yet: the ledger judges it when it is first drawn.
    private var undrawn: Set<Int> = []
    private(set) var outstandingDownloads = 0
    private(set) var decodeFailures = 0

    init(cellCount: Int, ledger: ScrollLedger, downloads: DownloadLog) {
        self.ledger = ledger
        self.downloads = downloads
        self.cellImages = Array(repeating: nil, count: cellCount)
    }

    func appear(row: Int, url: URL, cell: Int) {
        ledger.bind(cell, to: url)
        if let image = cache[url] {
            cellImages[cell] = image
            undrawn.insert(cell)
            return
        }
        outstandingDownloads += 1
        downloads.started(url.absoluteString)
        let downloads = self.downloads
        DispatchQueue.global().async {
            // ANTI-PATTERN (deliberate, the reproduced "before"): a blocking download on a GCD thread.
            let data = try? Data(contentsOf: url)
            downloads.finished(url.absoluteString, data == nil ? .failed : .completed)
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.arrived(data, url: url, cell: cell) }
            }
        }
    }

    func rebind(row: Int, url: URL, cell: Int) {
        appear(row: row, url: url, cell: cell)
    }

    func disappear(row: Int, cell: Int) {
        // ANTI-PATTERN (deliberate): nothing is cancelled; the cell keeps whatever it shows.
        ledger.unbind(cell)
    }

    func draw(cell: Int) {
        guard let image = cellImages[cell] else { return }
        if image.decoded == nil {
            do {
                // ANTI-PATTERN (deliberate): a full-size decode, synchronously, on the main actor, at first draw.
                image.decoded = try decoder.decodeSynchronously(image.data, options: DecodingOptions()).image
            } catch {
                decodeFailures += 1
                cellImages[cell] = nil
                undrawn.remove(cell)
                return
            }
        }
        // The image is on screen now: the ledger reads which row it belongs to from its pixels.
        if undrawn.remove(cell) != nil, let decoded = image.decoded {
            ledger.shown(cell, code: ScrollImageCode.read(decoded))
        }
    }

    var isSettled: Bool { outstandingDownloads == 0 }

    func showsOwnImage(cell: Int, url: URL) -> Bool {
        guard let decoded = cellImages[cell]?.decoded else { return false }
        return ScrollLedger.isImage(decoded, of: url)
    }

    /// Bytes held by the cache's decoded images.
    var cachedDecodedBytes: Int { cache.values.reduce(0) { $0 + ($1.decoded?.cost ?? 0) } }

    private func arrived(_ data: Data?, url: URL, cell: Int) {
        outstandingDownloads -= 1
        guard let data else { return }
        let image = NaiveImage(url: url, data: data)
        cache[url] = image
        // ANTI-PATTERN (deliberate): set on the cell that asked, whatever it shows now.
        cellImages[cell] = image
        undrawn.insert(cell)
    }
}
