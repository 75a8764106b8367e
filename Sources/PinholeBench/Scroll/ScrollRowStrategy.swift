import Foundation

/// How rows of the headless list get their images: the naive GCD code or Pinhole's ``Pinhole/ImageSlot``.
///
/// The list calls these on the main actor from its frame loop. Cells are reused: row `r` is shown in cell
/// `r % visibleRowCount`, so a cell that scrolls off comes back as another row.
@MainActor
protocol ScrollRowStrategy: AnyObject {
    /// `row` scrolled on screen in `cell`, showing `url`.
    func appear(row: Int, url: URL, cell: Int)
    /// `row`, on screen in `cell`, changed its URL to `url` (a refresh).
    func rebind(row: Int, url: URL, cell: Int)
    /// `row` scrolled off screen from `cell`.
    func disappear(row: Int, cell: Int)
    /// Draws `cell` for this frame.
    func draw(cell: Int)
    /// Nothing is loading or waiting to be applied any more.
    var isSettled: Bool { get }
    /// Whether `cell` shows the image of `url`, the URL of the row it shows now.
    func showsOwnImage(cell: Int, url: URL) -> Bool
}
