import Foundation

/// The book-keeping of one scroll run, on the main actor: which URL each cell is bound to, which images were
/// applied to which cell, and which bindings ended before their image arrived.
///
/// - A *binding* is a cell showing one row's URL, from appear (or a refresh's rebind) to disappear (or the next
///   rebind). A binding that ends before an image was applied for its URL *left early*.
/// - An image applied to a cell whose current URL is not the image's URL (or whose pixels are not that row's)
///   is a *wrong-row image*.
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

    /// An image for `url` was applied to `cell`; `pixelsMatch` says whether its pixels are those of the row
    /// the cell shows. Returns whether it was the right image.
    @discardableResult
    func applied(_ cell: Int, imageURL url: URL, pixelsMatch: Bool = true) -> Bool {
        imagesShown += 1
        let arrival = now()
        lastArrivalSeconds = arrival
        guard let binding = bindings[cell], binding.url == url, pixelsMatch else {
            wrongRowImages += 1
            return false
        }
        if !binding.shown { bindToImageMilliseconds.append((arrival - binding.since) * 1000) }
        bindings[cell]?.shown = true
        shownURLs.insert(url)
        return true
    }

    /// URLs whose every binding ended before their image arrived (never shown in their row).
    var leftEarlyURLs: Set<URL> { leftEarly.subtracting(shownURLs) }
}
