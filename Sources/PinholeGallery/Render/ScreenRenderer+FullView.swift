extension ScreenRenderer {
    /// Draws the full view: the photo over the whole width (centred by its picture), then its metadata: the title
    /// (with the favourite star), the date with the format and full size, the summary. While the photo loads, or
    /// when it failed, the box shows a line saying so.
    static func drawFullView(
        _ content: ScreenState.FullViewContent, layout: ScreenLayout, into lines: inout [String],
        placements: inout [Frame.Placement]
    ) {
        let width = layout.size.columns
        let (columns, rows) = layout.fullViewBox
        let top = layout.fullViewTop
        let row = content.row
        switch row.thumbnail {
        case .image(let picture) where picture.columns == columns && picture.rows == rows,
            .placeholder(let picture) where picture.columns == columns && picture.rows == rows:
            let drawn = pictureLines(row.thumbnail, columns: columns, rows: rows)
            for (offset, line) in drawn.lines.enumerated() { lines[top + offset] = line }
            if let placement = drawn.placement {
                placements.append(
                    Frame.Placement(row: top + placement.row, column: placement.column, picture: picture))
            }
        case .image, .placeholder, .loading:
            lines[top + rows / 2] = centred("loading…", width: width, style: dim)
        case .failed(let reason):
            lines[top + rows / 2] = centred("✗ \(reason) · r retries", width: width, style: red + bold)
        case .none:
            lines[top + rows / 2] = centred("(no image)", width: width, style: dim)
        }
        let metadata = top + rows
        let star = row.isFavourite ? yellow + "★ " + reset : ""
        let starWidth = row.isFavourite ? 2 : 0
        let title = TextWidth.fit(row.title.isEmpty ? "(untitled)" : row.title, to: max(1, width - 1 - starWidth))
        lines[metadata] = " " + star + bold + title + reset
        let facts = [row.date.isEmpty ? "no date" : row.date, content.details].filter { !$0.isEmpty }
        lines[metadata + 1] = dim + TextWidth.fit(" " + facts.joined(separator: " · "), to: width) + reset
        lines[metadata + 2] = dim + TextWidth.fit(" " + row.summary, to: width) + reset
    }
}
