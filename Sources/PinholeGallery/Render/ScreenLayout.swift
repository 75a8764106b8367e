public import Pinhole

/// A terminal's size in character cells.
public struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in columns.
    public var columns: Int
    /// Height in rows (lines).
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    public var description: String { "\(columns)×\(rows)" }
}

/// How the feed is laid out.
public enum LayoutMode: String, Sendable, Hashable, CaseIterable {
    /// One row per item: thumbnail, title, date, summary.
    case list
    /// Square thumbnails, filled and cropped, with a caption line each (see `ScreenLayout+Grid.swift`).
    case grid

    /// The other layout (what `g` switches to).
    public var toggled: LayoutMode { self == .list ? .grid : .list }
}

/// Where things go on the screen for a terminal size, a layout and a cell size: a header line, the items, a
/// message line, a status line. The full view's geometry is in `ScreenLayout+FullView.swift`.
///
/// List: each row is ``rowHeight`` lines tall (the thumbnail's height in cells) followed by a blank line; the
/// thumbnail is ``thumbnailColumns`` cells wide (8, 12 or 14 by terminal width).
public struct ScreenLayout: Sendable, Hashable {
    /// The terminal size.
    public let size: TerminalSize
    /// List or grid.
    public let mode: LayoutMode
    /// The terminal's cell size in pixels (grid tiles are square in pixels; thumbnails are requested at the
    /// pixel size of their cells).
    public let cellPixelSize: CellPixelSize
    /// Lines of one list row (= thumbnail height in cells): 4.
    public let rowHeight = 4

    public init(size: TerminalSize, mode: LayoutMode = .list, cellPixelSize: CellPixelSize = .assumed) {
        self.size = size
        self.mode = mode
        self.cellPixelSize = cellPixelSize
    }

    /// The same screen in another layout or with another cell size.
    public func with(mode: LayoutMode? = nil, size: TerminalSize? = nil, cellPixelSize: CellPixelSize? = nil)
        -> ScreenLayout
    {
        ScreenLayout(
            size: size ?? self.size, mode: mode ?? self.mode, cellPixelSize: cellPixelSize ?? self.cellPixelSize)
    }

    /// `true` below 30 × 8 cells: only a "too small" message is drawn.
    public var isTooSmall: Bool { size.columns < 30 || size.rows < 8 }

    /// The first line of the items (0-based; line 0 is the header).
    public var listTop: Int { 1 }

    /// Lines available to the items (all but the header, the message line and the status line).
    public var listHeight: Int { max(0, size.rows - 3) }

    /// Lines from one list row's top to the next one's (the row and one blank line): 5.
    public var rowStride: Int { rowHeight + 1 }

    /// Items that fit on one screen (at least 1): list rows, or grid tiles.
    public var visibleRowCount: Int {
        switch mode {
        case .list: max(1, (listHeight + 1) / rowStride)
        case .grid: tilesPerRow * tileRowsPerScreen
        }
    }

    /// Items one step of ↑/↓ moves: 1 in the list, a row of tiles in the grid.
    public var lineStep: Int { mode == .list ? 1 : tilesPerRow }

    /// List thumbnail width in cells: 14 at ≥ 100 columns, 12 at ≥ 60, else 8.
    public var thumbnailColumns: Int {
        if size.columns >= 100 { return 14 }
        if size.columns >= 60 { return 12 }
        return 8
    }

    /// List thumbnail height in cells (= ``rowHeight``).
    public var thumbnailRows: Int { rowHeight }

    /// The box a thumbnail is drawn into, in cells: the list's thumbnail, or a grid tile.
    public var pictureBox: (columns: Int, rows: Int) {
        mode == .list ? (thumbnailColumns, thumbnailRows) : (tileColumns, tileRows)
    }

    /// The box's size in pixels: its cells times the cell size.
    public var pictureBoxPixels: PixelSize {
        let (columns, rows) = pictureBox
        return PixelSize(width: columns * cellPixelSize.width, height: rows * cellPixelSize.height)
    }

    /// What a thumbnail is asked of the pipeline as: decoded at the box's pixel size, fitted inside it in the list,
    /// filling it (scaled to cover, the centre cut out) in the grid, so the picture is drawn at the size it is
    /// decoded.
    public var thumbnailOptions: ThumbnailOptions {
        ThumbnailOptions(size: pictureBoxPixels, contentMode: mode == .list ? .aspectFit : .fill(crop: .centre))
    }

    /// Columns before the text of a list row: selection bar (1), favourite marker and a space (2), the
    /// thumbnail, two spaces.
    public var textColumn: Int { 3 + thumbnailColumns + 2 }

    /// Columns for a list row's text (title, date, summary).
    public var textWidth: Int { max(1, size.columns - textColumn) }
}
