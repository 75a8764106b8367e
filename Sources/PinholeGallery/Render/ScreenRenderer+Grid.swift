extension ScreenRenderer {
    /// Draws the grid's tiles: each tile's picture, a caption line below it (favourite star and title, reversed
    /// when selected) and, for the selected tile in the symbol modes, a bar in the gap column to its left.
    static func drawGrid(
        _ grid: ScreenState.ListContent, layout: ScreenLayout, pictureMode: GraphicsMode = .symbols,
        into lines: inout [String], placements: inout [Frame.Placement]
    ) {
        let width = layout.size.columns
        // Each screen line of the grid is assembled from segments, left to right: a segment starts at `column` with
        // the tile's bar or gap column, then the tile's width (1 + tileColumns visible columns in all).
        var segments = [[(column: Int, text: String)]](repeating: [], count: lines.count)
        let bottom = layout.size.rows - 2
        for (position, row) in grid.rows.enumerated() {
            let origin = layout.tileOrigin(position)
            guard origin.row + layout.tileStride <= bottom else { break }
            let picture = pictureLines(
                row.thumbnail, columns: layout.tileColumns, rows: layout.tileRows, pictureMode: pictureMode)
            let bar = row.isSelected && !pictureMode.drawsPixels ? cyan + "▌" + reset : " "
            for (offset, line) in picture.lines.enumerated() {
                segments[origin.row + offset].append((origin.column - 1, bar + line))
            }
            if let placement = picture.placement {
                placements.append(
                    Frame.Placement(
                        row: origin.row + placement.row, column: origin.column + placement.column,
                        picture: placement.picture))
            }
            segments[origin.row + layout.tileRows].append(
                (origin.column - 1, " " + caption(row, width: layout.tileColumns)))
        }
        for (line, parts) in segments.enumerated() where !parts.isEmpty {
            var text = ""
            var used = 0
            for part in parts {
                text += String(repeating: " ", count: max(0, part.column - used)) + part.text
                used = max(used, part.column) + 1 + layout.tileColumns
            }
            lines[line] = text + String(repeating: " ", count: max(0, width - used))
        }
    }

    /// A tile's caption: the favourite star and the title, cut to the tile's width; reversed when selected.
    static func caption(_ row: ScreenState.Row, width: Int) -> String {
        let star = row.isFavourite ? "★ " : ""
        let title = TextWidth.fit(star + (row.title.isEmpty ? "(untitled)" : row.title), to: width)
        let style = row.isSelected ? bold + reverse : dim
        guard row.isFavourite, !row.isSelected else { return style + title + reset }
        return yellow + String(title.prefix(1)) + reset + style + String(title.dropFirst()) + reset
    }
}
