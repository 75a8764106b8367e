/// Draws a ``ScreenState`` as screen lines: a pure function, no terminal, no clock, no I/O.
///
/// The result has exactly `size.rows` lines, each exactly `size.columns` columns wide once ANSI SGR sequences are
/// left out, and each ending with `ESC[0m` when it used any style. ``FrameDiffer`` then writes only the lines
/// that changed.
public enum ScreenRenderer {
    static let escape = "\u{1B}["
    static let reset = "\u{1B}[0m"
    static let bold = "\u{1B}[1m"
    static let dim = "\u{1B}[2m"
    static let reverse = "\u{1B}[7m"
    static let red = "\u{1B}[31m"
    static let yellow = "\u{1B}[33m"
    static let cyan = "\u{1B}[36m"
    static let placeholder = "\u{1B}[38;5;240m"
    /// Braille spinner frames.
    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// The message line when there is no diagnostic.
    public static let keyHelp = "↑/↓ j/k move · PgUp/PgDn page · Home/End · f favourite · r retry · q quit"

    /// The lines of the frame for `state` on a terminal of `size`.
    public static func render(_ state: ScreenState, size: TerminalSize) -> [String] {
        guard size.columns > 0, size.rows > 0 else { return [] }
        let layout = ScreenLayout(size: size)
        let width = size.columns
        let blank = String(repeating: " ", count: width)
        var lines = [String](repeating: blank, count: size.rows)
        if layout.isTooSmall {
            lines[0] = TextWidth.fit("Terminal too small (need 30×8)", to: width)
            return lines
        }
        lines[0] = header(state, width: width)
        switch state.content {
        case .loading:
            let frame = spinner[abs(state.spinnerFrame) % spinner.count]
            lines[layout.listTop + layout.listHeight / 2] = centred("\(frame) Loading feed…", width: width, style: cyan)
        case .failed(let error):
            let middle = layout.listTop + max(0, layout.listHeight / 2 - 2)
            lines[middle] = centred("✗ \(error.headline)", width: width, style: red + bold)
            lines[middle + 1] = centred(error.message, width: width, style: dim)
            lines[min(middle + 3, size.rows - 3)] = centred("Press r to retry · q to quit", width: width, style: "")
        case .list(let list):
            if list.rows.isEmpty {
                lines[layout.listTop + 1] = centred("The feed has no items.", width: width, style: dim)
            }
            for (position, row) in list.rows.enumerated() {
                let top = layout.listTop + position * layout.rowStride
                for (offset, line) in rowLines(row, layout: layout).enumerated() where top + offset < size.rows - 2 {
                    lines[top + offset] = line
                }
            }
        }
        let message = state.message ?? keyHelp
        lines[size.rows - 2] = dim + TextWidth.fit(" " + message, to: width) + reset
        lines[size.rows - 1] = reverse + TextWidth.fit(" " + state.status, to: width) + reset
        return lines
    }

    private static func header(_ state: ScreenState, width: Int) -> String {
        var right = ""
        if case .list(let list) = state.content {
            let selected = list.rows.first(where: \.isSelected).map { $0.index + 1 } ?? 0
            right = "  \(selected)/\(list.totalCount) · ★ \(list.favouriteCount) "
        }
        let rightWidth = TextWidth.columns(right)
        let left = TextWidth.fit(" Pinhole · " + state.title, to: max(1, width - rightWidth))
        return bold + left + reset + TextWidth.fit(right, to: width - TextWidth.columns(left))
    }

    private static func centred(_ text: String, width: Int, style: String) -> String {
        let textWidth = min(width, TextWidth.columns(text))
        let left = (width - textWidth) / 2
        let body = TextWidth.fit(text, to: textWidth)
        return String(repeating: " ", count: left) + style + body + reset
            + String(repeating: " ", count: width - left - textWidth)
    }

    /// The ``ScreenLayout/rowHeight`` lines of one row.
    static func rowLines(_ row: ScreenState.Row, layout: ScreenLayout) -> [String] {
        let textWidth = layout.textWidth
        let thumbnail = thumbnailLines(row.thumbnail, layout: layout)
        let bar = row.isSelected ? cyan + "▌" + reset : " "
        var texts: [String] = []
        let title = TextWidth.fit(row.title.isEmpty ? "(untitled)" : row.title, to: textWidth)
        texts.append((row.isSelected ? bold + reverse : bold) + title + reset)
        texts.append(dim + TextWidth.fit(row.date.isEmpty ? "no date" : row.date, to: textWidth) + reset)
        texts.append(dim + TextWidth.fit(row.summary, to: textWidth) + reset)
        switch row.thumbnail {
        case .loading: texts.append(dim + TextWidth.fit("loading…", to: textWidth) + reset)
        case .failed(let reason): texts.append(red + TextWidth.fit("✗ \(reason) · r retries", to: textWidth) + reset)
        case .none, .image: texts.append(String(repeating: " ", count: textWidth))
        }
        return (0..<layout.rowHeight).map { line in
            let marker = line == 0 && row.isFavourite ? yellow + "★" + reset : " "
            return bar + marker + " " + thumbnail[line] + "  " + texts[line]
        }
    }

    private static func thumbnailLines(_ thumbnail: ScreenState.Thumbnail, layout: ScreenLayout) -> [String] {
        let columns = layout.thumbnailColumns
        let rows = layout.rowHeight
        switch thumbnail {
        case .image(let cells) where cells.columns == columns && cells.rows == rows:
            return cells.lines
        case .image, .loading:
            return Array(repeating: placeholder + String(repeating: "░", count: columns) + reset, count: rows)
        case .none:
            return Array(repeating: String(repeating: " ", count: columns), count: rows)
        case .failed:
            let fill = red + String(repeating: "░", count: columns) + reset
            let left = (columns - 1) / 2
            let mark =
                red + String(repeating: "░", count: left) + bold + "✗" + reset + red
                + String(repeating: "░", count: columns - left - 1) + reset
            return (0..<rows).map { $0 == (rows - 1) / 2 ? mark : fill }
        }
    }
}
