extension ScreenLayout {
    /// The tile width aimed at, in cells, before the row is stretched to the terminal's width: 18.
    static let targetTileColumns = 18

    /// Grid tiles in one row (≥ 1): as many as fit at about ``targetTileColumns`` cells, each with one column
    /// of gap on its left (where the selection bar goes).
    public var tilesPerRow: Int { max(1, size.columns / (Self.targetTileColumns + 1)) }

    /// A tile's width in cells: the row's tiles stretched to fill the terminal's width (≥ 4).
    public var tileColumns: Int { max(4, size.columns / tilesPerRow - 1) }

    /// A tile's picture height in cells: square in pixels for the terminal's cell size (≥ 2).
    public var tileRows: Int {
        let side = Double(tileColumns * cellPixelSize.width) / Double(cellPixelSize.height)
        return max(2, Int(side.rounded()))
    }

    /// Lines from one row of tiles to the next: the picture and its caption line.
    public var tileStride: Int { tileRows + 1 }

    /// Rows of tiles on one screen (≥ 1).
    public var tileRowsPerScreen: Int { max(1, listHeight / tileStride) }

    /// Where the tile at `position` (0-based, on screen, row-major) starts: the cell of its picture's top-left
    /// corner (0-based column and line). Its caption is the line below the picture; its selection bar is the
    /// column to its left.
    public func tileOrigin(_ position: Int) -> (column: Int, row: Int) {
        let perRow = tilesPerRow
        return (1 + (position % perRow) * (tileColumns + 1), listTop + (position / perRow) * tileStride)
    }
}
