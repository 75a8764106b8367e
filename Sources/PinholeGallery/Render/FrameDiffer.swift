/// Turns successive frames (lists of screen lines) into the bytes to write: the whole screen the first time
/// and after a size change, then only the lines that changed, each addressed with a cursor move (`ESC[row;1H`).
///
/// Lines must be exactly the terminal's width (``ScreenRenderer`` guarantees it), so no line needs clearing.
public struct FrameDiffer: Sendable {
    private var previous: [String] = []

    /// Lines written by the last ``diff(_:)`` call.
    public private(set) var changedLineCount = 0

    public init() {}

    /// Forgets the previous frame, so the next ``diff(_:)`` redraws everything (after a resize or a foreign write).
    public mutating func invalidate() {
        previous = []
    }

    /// The output that turns the previous frame into `lines`; empty when nothing changed.
    public mutating func diff(_ lines: [String]) -> String {
        var output = ""
        let full = previous.count != lines.count
        if full { output += "\u{1B}[0m\u{1B}[H\u{1B}[2J" }
        changedLineCount = 0
        for (index, line) in lines.enumerated() where full || previous[index] != line {
            output += "\u{1B}[\(index + 1);1H" + line
            changedLineCount += 1
        }
        previous = lines
        return output
    }
}
