/// Draws a ``ScreenState`` as a ``Frame``: a pure function, no terminal, no clock, no I/O.
///
/// The frame has exactly `size.rows` lines, each exactly `size.columns` columns wide once ANSI SGR sequences are
/// left out, and each ending with `ESC[0m` when it used any style. Pictures drawn with an image protocol are
/// placements over spaces (see ``Frame``). ``FrameDiffer`` then writes only what changed.
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
    /// The message line of the list when there is no diagnostic.
    public static let keyHelp =
        "↑/↓ j/k move · PgUp/PgDn page · Enter open · g grid · f favourite · r retry · q quit"
    /// The message line of the grid when there is no diagnostic.
    public static let gridKeyHelp =
        "←/→/↑/↓ move · PgUp/PgDn page · Enter open · g list · f favourite · r retry · q quit"
    /// The message line of the full view when there is no diagnostic.
    public static let fullViewKeyHelp = "←/→ previous/next · Esc back · f favourite · r retry · q quit"

    /// The lines of the list frame for `state` on a terminal of `size` (pictures drawn with an image protocol
    /// are left out: see ``frame(_:layout:)``).
    public static func render(_ state: ScreenState, size: TerminalSize) -> [String] {
        frame(state, layout: ScreenLayout(size: size)).lines
    }

    /// The frame for `state` in `layout` (its terminal size, list or grid, and cell size).
    public static func frame(_ state: ScreenState, layout: ScreenLayout) -> Frame {
        let size = layout.size
        guard size.columns > 0, size.rows > 0 else { return Frame(lines: []) }
        let width = size.columns
        let blank = String(repeating: " ", count: width)
        var lines = [String](repeating: blank, count: size.rows)
        var placements: [Frame.Placement] = []
        if layout.isTooSmall {
            lines[0] = TextWidth.fit("Terminal too small (need 30×8)", to: width)
            return Frame(lines: lines)
        }
        lines[0] = header(state, width: width)
        var help = keyHelp
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
            let listLayout = layout.with(mode: .list)
            for (position, row) in list.rows.enumerated() {
                let top = layout.listTop + position * layout.rowStride
                let drawn = rowLines(row, layout: listLayout, pictureMode: state.pictureMode)
                for (offset, line) in drawn.lines.enumerated() where top + offset < size.rows - 2 {
                    lines[top + offset] = line
                }
                if let placement = drawn.placement, top + placement.row + placement.picture.pixelRows <= size.rows - 2 {
                    placements.append(
                        Frame.Placement(row: top + placement.row, column: placement.column, picture: placement.picture))
                }
            }
        case .grid(let grid):
            help = gridKeyHelp
            if grid.rows.isEmpty {
                lines[layout.listTop + 1] = centred("The feed has no items.", width: width, style: dim)
            }
            drawGrid(
                grid, layout: layout.with(mode: .grid), pictureMode: state.pictureMode, into: &lines,
                placements: &placements)
        case .fullView(let content):
            help = fullViewKeyHelp
            drawFullView(content, layout: layout, into: &lines, placements: &placements)
        }
        let message = state.message ?? help
        lines[size.rows - 2] = dim + TextWidth.fit(" " + message, to: width) + reset
        lines[size.rows - 1] = reverse + TextWidth.fit(" " + state.status, to: width) + reset
        return Frame(lines: lines, placements: placements)
    }

    private static func header(_ state: ScreenState, width: Int) -> String {
        var right = ""
        switch state.content {
        case .list(let list), .grid(let list):
            let selected = list.rows.first(where: \.isSelected).map { $0.index + 1 } ?? 0
            right = "  \(selected)/\(list.totalCount) · ★ \(list.favouriteCount) "
        case .fullView(let content):
            right = "  \(content.row.index + 1)/\(content.totalCount) · ★ \(content.favouriteCount) "
        case .loading, .failed:
            break
        }
        let rightWidth = TextWidth.columns(right)
        let left = TextWidth.fit(" Pinhole · " + state.title, to: max(1, width - rightWidth))
        return bold + left + reset + TextWidth.fit(right, to: width - TextWidth.columns(left))
    }

    static func centred(_ text: String, width: Int, style: String) -> String {
        let textWidth = min(width, TextWidth.columns(text))
        let left = (width - textWidth) / 2
        let body = TextWidth.fit(text, to: textWidth)
        return String(repeating: " ", count: left) + style + body + reset
            + String(repeating: " ", count: width - left - textWidth)
    }

    /// The ``ScreenLayout/rowHeight`` lines of one list row, and its picture's placement (relative to the row's
    /// first line) when it is drawn with an image protocol.
    static func rowLines(_ row: ScreenState.Row, layout: ScreenLayout, pictureMode: GraphicsMode = .symbols)
        -> (lines: [String], placement: Frame.Placement?)
    {
        let textWidth = layout.textWidth
        let thumbnail = pictureLines(
            row.thumbnail, columns: layout.thumbnailColumns, rows: layout.rowHeight, pictureMode: pictureMode)
        let bar = row.isSelected ? cyan + "▌" + reset : " "
        var texts: [String] = []
        let title = TextWidth.fit(row.title.isEmpty ? "(untitled)" : row.title, to: textWidth)
        texts.append((row.isSelected ? bold + reverse : bold) + title + reset)
        texts.append(dim + TextWidth.fit(row.date.isEmpty ? "no date" : row.date, to: textWidth) + reset)
        texts.append(dim + TextWidth.fit(row.summary, to: textWidth) + reset)
        switch row.thumbnail {
        case .loading, .placeholder: texts.append(dim + TextWidth.fit("loading…", to: textWidth) + reset)
        case .failed(let reason): texts.append(red + TextWidth.fit("✗ \(reason) · r retries", to: textWidth) + reset)
        case .none, .image: texts.append(String(repeating: " ", count: textWidth))
        }
        let lines = (0..<layout.rowHeight).map { line in
            let marker = line == 0 && row.isFavourite ? yellow + "★" + reset : " "
            return bar + marker + " " + thumbnail.lines[line] + "  " + texts[line]
        }
        let placement = thumbnail.placement.map {
            Frame.Placement(row: $0.row, column: 3 + $0.column, picture: $0.picture)
        }
        return (lines, placement)
    }

    /// A picture box of `columns` × `rows` cells: its lines, and the placement (relative to the box) of a picture
    /// drawn with an image protocol. A picture drawn for another box size shows the placeholder, which is blank
    /// when `pictureMode` is an image protocol (see ``ScreenState/pictureMode``).
    static func pictureLines(
        _ thumbnail: ScreenState.Thumbnail, columns: Int, rows: Int, pictureMode: GraphicsMode = .symbols
    ) -> (lines: [String], placement: Frame.Placement?) {
        let blank = String(repeating: " ", count: columns)
        switch thumbnail {
        case .image(let picture) where picture.columns == columns && picture.rows == rows,
            .placeholder(let picture) where picture.columns == columns && picture.rows == rows:
            guard picture.mode.drawsPixels else { return (picture.lines, nil) }
            let placement = Frame.Placement(
                row: picture.pixelOffset.row, column: picture.pixelOffset.column, picture: picture)
            return (Array(repeating: blank, count: rows), placement)
        case .image, .placeholder, .loading:
            if pictureMode.drawsPixels { return (Array(repeating: blank, count: rows), nil) }
            return (Array(repeating: placeholder + String(repeating: "░", count: columns) + reset, count: rows), nil)
        case .none:
            return (Array(repeating: blank, count: rows), nil)
        case .failed:
            let fill = red + String(repeating: "░", count: columns) + reset
            let left = (columns - 1) / 2
            let mark =
                red + String(repeating: "░", count: left) + bold + "✗" + reset + red
                + String(repeating: "░", count: columns - left - 1) + reset
            return ((0..<rows).map { $0 == (rows - 1) / 2 ? mark : fill }, nil)
        }
    }
}
