import Foundation
import Pinhole

/// The fix: one ``ImageSlot`` per cell over one shared ``ImagePipeline``, thumbnails of the row's pixel size.
///
/// Rows call `slot.load(request)` on appear and on refresh (which cancels the previous request) and
/// `slot.cancel()` on disappear. The slot applies only results of its current request, so the ledger checks
/// each applied image's pixels against the expected thumbnail of the row the cell shows.
@MainActor
final class PinholeRows: ScrollRowStrategy {
    private let pipeline: ImagePipeline
    private let ledger: ScrollLedger
    private let slots: [ImageSlot]
    private let thumbnailPixels: Int
    /// The expected thumbnail of image `k`; row `r` shows image `r % expected.count`.
    private let expected: [PixelImage]
    private var cellRows: [Int?]
    private(set) var failures = 0

    init(pipeline: ImagePipeline, cellCount: Int, thumbnailPixels: Int, expected: [PixelImage], ledger: ScrollLedger) {
        self.pipeline = pipeline
        self.ledger = ledger
        self.thumbnailPixels = thumbnailPixels
        self.expected = expected
        self.cellRows = Array(repeating: nil, count: cellCount)
        self.slots = (0..<cellCount).map { _ in ImageSlot(pipeline: pipeline) }
        for (cell, slot) in slots.enumerated() {
            slot.onChange = { [weak self] slot in self?.phaseChanged(slot, cell: cell) }
        }
    }

    func appear(row: Int, url: URL, cell: Int) {
        cellRows[cell] = row
        ledger.bind(cell, to: url)
        slots[cell].load(ImageRequest(url: url, maxPixelSize: thumbnailPixels))
    }

    func rebind(row: Int, url: URL, cell: Int) {
        appear(row: row, url: url, cell: cell)
    }

    func disappear(row: Int, cell: Int) {
        ledger.unbind(cell)
        cellRows[cell] = nil
        slots[cell].cancel()
    }

    func draw(cell: Int) {
        // Drawing a ready thumbnail costs nothing worth modelling: the pixels are already decoded and small.
        blackHole(slots[cell].phase.response?.image.width)
    }

    var isSettled: Bool {
        let visibleLoading = zip(slots, cellRows).contains { slot, row in row != nil && slot.phase.isLoading }
        return !visibleLoading && pipeline.activeImageJobCount == 0 && pipeline.networkQueueCounts.running == 0
    }

    func showsOwnImage(cell: Int, url: URL) -> Bool {
        guard let row = cellRows[cell], let response = slots[cell].phase.response else { return false }
        return slots[cell].request?.url == url && response.image == expected[row % expected.count]
    }

    private func phaseChanged(_ slot: ImageSlot, cell: Int) {
        switch slot.phase {
        case .success(let response):
            guard let url = slot.request?.url else { return }
            let matches = cellRows[cell].map { response.image == expected[$0 % expected.count] } ?? false
            ledger.applied(cell, imageURL: url, pixelsMatch: matches)
        case .failure:
            failures += 1
        case .empty, .loading:
            break
        }
    }
}
