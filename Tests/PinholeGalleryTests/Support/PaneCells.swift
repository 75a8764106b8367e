/// The cells of a tmux pane captured with escapes (`capture-pane -p -e`): per line, per column, the truecolor
/// foreground and background in effect (SGR `38;2;r;g;b` / `48;2;r;g;b`, reset by `0`, `39`, `49`, replaced by
/// other colour forms). Every printed character takes one column (the gallery draws only narrow characters in
/// its pictures and captions).
struct PaneCells {
    struct Cell: Hashable {
        var character: Character
        var foreground: String?
        var background: String?
    }

    /// The cells, line by line.
    let lines: [[Cell]]

    init(capture: String) {
        lines = capture.split(separator: "\n", omittingEmptySubsequences: false).map(Self.cells)
    }

    /// Every distinct truecolor value (`r;g;b`) used as foreground or background.
    var truecolorValues: Set<String> {
        Set(lines.joined().flatMap { [$0.foreground, $0.background].compactMap { $0 } })
    }

    /// The share (0…1) of the cells in `columns` × `rows` (0-based, clipped to the pane) that have a truecolor
    /// foreground or background.
    func colouredShare(columns: Range<Int>, rows: Range<Int>) -> Double {
        var coloured = 0
        var total = 0
        for row in rows where row < lines.count {
            for column in columns {
                total += 1
                guard column < lines[row].count else { continue }
                if lines[row][column].foreground != nil || lines[row][column].background != nil { coloured += 1 }
            }
        }
        return Double(coloured) / Double(max(1, total))
    }

    private static func cells(_ line: Substring) -> [Cell] {
        var cells: [Cell] = []
        var foreground: String?
        var background: String?
        var scalars = line.unicodeScalars[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            guard scalar == "\u{1B}" else {
                cells.append(Cell(character: Character(scalar), foreground: foreground, background: background))
                continue
            }
            guard scalars.first == "[" else { continue }
            scalars = scalars.dropFirst()
            var parameters = ""
            while let next = scalars.first, !(0x40...0x7E).contains(next.value) {
                parameters.unicodeScalars.append(next)
                scalars = scalars.dropFirst()
            }
            let final = scalars.first
            scalars = scalars.dropFirst()
            guard final == "m" else { continue }
            apply(parameters, foreground: &foreground, background: &background)
        }
        return cells
    }

    private static func apply(_ parameters: String, foreground: inout String?, background: inout String?) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        var index = 0
        while index < numbers.count {
            switch numbers[index] {
            case 0:
                foreground = nil
                background = nil
            case 39: foreground = nil
            case 49: background = nil
            case 38, 48:
                let isForeground = numbers[index] == 38
                if index + 4 < numbers.count, numbers[index + 1] == 2 {
                    let value = numbers[(index + 2)...(index + 4)].map(String.init).joined(separator: ";")
                    if isForeground { foreground = value } else { background = value }
                    index += 4
                } else {
                    if isForeground { foreground = nil } else { background = nil }
                    index += 2
                }
            case 30...37, 90...97: foreground = nil
            case 40...47, 100...107: background = nil
            default: break
            }
            index += 1
        }
    }
}
