import Foundation
import Pinhole

/// The book-keeping of one scroll run, on the main actor: which URL each cell is bound to, which images were
/// applied to which cell, and which bindings ended before their image arrived.
///
/// - A *binding* is a cell showing one row's URL, from appear (or a refresh's rebind) to disappear (or the next
///   rebind). A binding that ends before an image was applied for its URL *left early*.
/// - Every image shown is judged by its pixels alone: the ``ScrollImageCode`` read from them must be the code of
///   the URL the cell shows now (row and refresh generation). Otherwise it is a *wrong-row image*: an image of
///   another row, of the same row's previous refresh, or one whose code cannot be read (*unreadable*, counted
///   too). What the strategy believes the image's URL to be is never asked.
@MainActor
final class ScrollLedger {
    private struct Binding {
        var url: URL
        var since: Double
        var shown = false
    }

    /// Seconds since the run started, for arrival times.
    private let now: @MainActor () -> Double
    private var bindings: [Binding?]
    private(set) var imagesShown = 0
    private(set) var wrongRowImages = 0
    /// Images shown whose code could not be read (counted among the wrong-row images too).
    private(set) var unreadableImages = 0
    private(set) var lastArrivalSeconds: Double?
    private(set) var distinctURLs: Set<URL> = []
    private(set) var shownURLs: Set<URL> = []
    private var leftEarly: Set<URL> = []
    /// For each image shown in its own row: seconds from the binding to the image, in milliseconds.
    private(set) var bindToImageMilliseconds: [Double] = []

    init(cellCount: Int, now: @escaping @MainActor () -> Double) {
        self.now = now
        self.bindings = Array(repeating: nil, count: cellCount)
    }

    /// `cell` now shows `url` (the previous binding, if any, ends).
    func bind(_ cell: Int, to url: URL) {
        unbind(cell)
        // The code is parsed from the URL when an image arrives, not here: binding is inside the measured frame.
        bindings[cell] = Binding(url: url, since: now())
        distinctURLs.insert(url)
    }

    /// `cell` left the screen (its binding ends).
    func unbind(_ cell: Int) {
        if let binding = bindings[cell], !binding.shown { leftEarly.insert(binding.url) }
        bindings[cell] = nil
    }

    /// The URL `cell` is bound to now.
    func url(of cell: Int) -> URL? { bindings[cell]?.url }

    /// An image was shown in `cell`; `code` is what its pixels say (``ScrollImageCode/read(_:)``; `nil` when
    /// unreadable). Returns whether it was the image of the URL the cell shows now.
    @discardableResult
    func shown(_ cell: Int, code: ScrollImageCode?) -> Bool {
        imagesShown += 1
        let arrival = now()
        lastArrivalSeconds = arrival
        if code == nil { unreadableImages += 1 }
        guard let binding = bindings[cell], let code, ScrollImageCode(url: binding.url) == code else {
            wrongRowImages += 1
            return false
        }
        if !binding.shown { bindToImageMilliseconds.append((arrival - binding.since) * 1000) }
        bindings[cell]?.shown = true
        shownURLs.insert(binding.url)
        return true
    }

    /// Whether `image`'s code is that of `url` (for the rows on screen at the end of a run).
    static func isImage(_ image: PixelImage, of url: URL) -> Bool {
        guard let code = ScrollImageCode(url: url) else { return false }
        return ScrollImageCode.read(image) == code
    }

    /// URLs whose every binding ended before their image arrived (never shown in their row).
    var leftEarlyURLs: Set<URL> { leftEarly.subtracting(shownURLs) }
}
