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

/// Where things go on the screen for a terminal size: a header line, the list, a message line, a status line.
///
/// Each list row is ``rowHeight`` lines tall (the thumbnail's height in cells) followed by a blank line; the
/// thumbnail is ``thumbnailColumns`` cells wide (8, 12 or 14 by terminal width), i.e. a box of
/// ``thumbnailColumns`` × 2·``rowHeight`` pixels.
public struct ScreenLayout: Sendable, Hashable {
    /// The terminal size.
    public let size: TerminalSize
    /// Lines of one row (= thumbnail height in cells): 4.
    public let rowHeight = 4
    /// Lines from one row's top to the next one's (the row and one blank line): 5.
    public var rowStride: Int { rowHeight + 1 }

    public init(size: TerminalSize) {
        self.size = size
    }

    /// `true` below 30 × 8 cells: only a "too small" message is drawn.
    public var isTooSmall: Bool { size.columns < 30 || size.rows < 8 }

    /// The first line of the list (0-based; line 0 is the header).
    public var listTop: Int { 1 }

    /// Lines available to the list (all but the header, the message line and the status line).
    public var listHeight: Int { max(0, size.rows - 3) }

    /// Rows that fit on one screen (at least 1).
    public var visibleRowCount: Int { max(1, (listHeight + 1) / rowStride) }

    /// Thumbnail width in cells: 14 at ≥ 100 columns, 12 at ≥ 60, else 8.
    public var thumbnailColumns: Int {
        if size.columns >= 100 { return 14 }
        if size.columns >= 60 { return 12 }
        return 8
    }

    /// Thumbnail height in cells (= ``rowHeight``).
    public var thumbnailRows: Int { rowHeight }

    /// The longest side, in pixels, asked of the pipeline: twice the pixel box's longest side, so the
    /// half-block conversion averages several pixels into each one.
    public var requestPixelSize: Int { 2 * max(thumbnailColumns, 2 * thumbnailRows) }

    /// Columns before the text of a row: selection bar (1), favourite marker and a space (2), the thumbnail,
    /// two spaces.
    public var textColumn: Int { 3 + thumbnailColumns + 2 }

    /// Columns for a row's text (title, date, summary).
    public var textWidth: Int { max(1, size.columns - textColumn) }
}
