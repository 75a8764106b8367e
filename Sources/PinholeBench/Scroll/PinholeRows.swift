import Foundation
import Pinhole

/// The fix: one ``ImageSlot`` per cell over one shared ``ImagePipeline``, thumbnails of the row's pixel size.
///
/// Rows call `slot.load(request)` on appear and on refresh (which cancels the previous request) and
/// `slot.cancel()` on disappear. The slot applies only results of its current request; the ledger judges each
/// shown image by the code in its pixels (``ScrollImageCode``). `unguarded` switches the slots' generation check
/// off (`--strategy unguarded`): the measure must then see wrong-row images.
@MainActor
final class PinholeRows: ScrollRowStrategy {
    private let pipeline: ImagePipeline
    private let ledger: ScrollLedger
    private let slots: [ImageSlot]
    private let thumbnailPixels: Int
    private var cellRows: [Int?]
    private(set) var failures = 0

    init(pipeline: ImagePipeline, cellCount: Int, thumbnailPixels: Int, ledger: ScrollLedger, unguarded: Bool = false) {
        self.pipeline = pipeline
        self.ledger = ledger
        self.thumbnailPixels = thumbnailPixels
        self.cellRows = Array(repeating: nil, count: cellCount)
        self.slots = (0..<cellCount).map { _ in ImageSlot(pipeline: pipeline) }
        for (cell, slot) in slots.enumerated() {
            slot.checksGeneration = !unguarded
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
        guard cellRows[cell] != nil, let response = slots[cell].phase.response else { return false }
        return ScrollLedger.isImage(response.image, of: url)
    }

    private func phaseChanged(_ slot: ImageSlot, cell: Int) {
        switch slot.phase {
        case .success(let response):
            ledger.shown(cell, code: ScrollImageCode.read(response.image))
        case .failure:
            failures += 1
        case .empty, .loading:
            break
        }
    }
}
