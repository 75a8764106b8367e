/// Turns successive frames into the bytes to write: the whole screen the first time and after a size change,
/// then only the lines that changed, each addressed with a cursor move (`ESC[row;1H`), then the pictures that
/// must be drawn again.
///
/// Lines must be exactly the terminal's width (``ScreenRenderer`` guarantees it), so no line needs clearing.
/// Pictures (``Frame/placements``):
/// - sixel and iTerm2 pictures are painted into the cells, so text written over them erases them: a picture is
///   drawn when it is new (or moved) and again whenever a line it covers was rewritten; the lines under a
///   picture that went away are rewritten (with the spaces or text now there), which erases it;
/// - kitty pictures live on a layer above the text: when the set of pictures changes, every kitty picture is
///   deleted (`ESC_Ga=d,d=A`) and the current ones placed again.
public struct FrameDiffer: Sendable {
    private var previous = Frame(lines: [])
    /// The graphics mode of the pictures this differ places.
    public let mode: GraphicsMode

    /// Lines written by the last ``diff(_:)-swift.method`` call.
    public private(set) var changedLineCount = 0
    /// Pictures written by the last ``diff(_:)-swift.method`` call.
    public private(set) var drawnPictureCount = 0

    /// Deletes every kitty picture and frees its data (`q=2`: no reply).
    static let deleteKittyPictures = "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"

    /// - Parameter mode: the graphics mode of the frames' pictures; ``GraphicsMode/symbols`` (no placements) by
    ///   default.
    public init(mode: GraphicsMode = .symbols) {
        self.mode = mode
    }

    /// Forgets the previous frame, so the next ``diff(_:)-swift.method`` redraws everything (after a resize or a
    /// foreign write).
    public mutating func invalidate() {
        previous = Frame(lines: [])
    }

    /// The output that turns the previous frame into `lines` (a frame without pictures); empty when nothing
    /// changed.
    public mutating func diff(_ lines: [String]) -> String {
        diff(Frame(lines: lines))
    }

    /// The output that turns the previous frame into `frame`; empty when nothing changed.
    public mutating func diff(_ frame: Frame) -> String {
        let full = previous.lines.count != frame.lines.count
        var rewrite = Set<Int>()
        if full {
            rewrite = Set(frame.lines.indices)
        } else {
            for index in frame.lines.indices where previous.lines[index] != frame.lines[index] { rewrite.insert(index) }
        }
        let previousPlacements = full ? [] : previous.placements
        let gone = previousPlacements.filter { !frame.placements.contains($0) }
        let erasedByText = mode.isErasedByText
        if erasedByText {
            for placement in gone { rewrite.formUnion(placement.rows.clamped(to: frame.lines.indices)) }
        }
        var output = full ? "\u{1B}[0m\u{1B}[H\u{1B}[2J" : ""
        for index in rewrite.sorted() {
            output += "\u{1B}[\(index + 1);1H" + frame.lines[index]
        }
        changedLineCount = rewrite.count
        let toDraw: [Frame.Placement]
        if erasedByText {
            toDraw = frame.placements.filter { placement in
                !previousPlacements.contains(placement) || placement.rows.contains(where: rewrite.contains)
            }
        } else if mode == .kitty
            && (full || !gone.isEmpty || frame.placements.contains { !previousPlacements.contains($0) })
        {
            output += Self.deleteKittyPictures
            toDraw = frame.placements
        } else {
            toDraw = []
        }
        for placement in toDraw {
            output += "\u{1B}[\(placement.row + 1);\(placement.column + 1)H" + placement.picture.payload
        }
        drawnPictureCount = toDraw.count
        previous = frame
        return output
    }
}
