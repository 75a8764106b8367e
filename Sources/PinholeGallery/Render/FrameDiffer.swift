/// Turns successive frames into the bytes to write: the whole screen the first time and after a size change,
/// then only the lines that changed, each addressed with a cursor move (`ESC[row;1H`), then the pictures that
/// must be drawn again.
///
/// Lines must be exactly the terminal's width (``ScreenRenderer`` guarantees it), so no line needs clearing.
/// Pictures (``Frame/placements``):
/// - sixel and iTerm2 pictures are painted into the cells, so text written over them erases them: a picture is
///   drawn when it is new (or moved) and again whenever a line it covers was rewritten; the lines under a
///   picture that went away are rewritten (with the spaces or text now there), which erases it;
///   A picture replaced by another of the same cells (the next frame of an animation) is not erased: the new one
///   is painted over it, and nothing else on its lines is sent again.
/// - kitty pictures live on a layer above the text. Each is placed with an image id of this differ's
///   (`i=N,q=2`, added to libchafa's `ESC_G` command), so a picture that went away is deleted alone
///   (`ESC_Ga=d,d=I,i=N`) after the pictures that replace it are placed: an animation frame replaces the last in
///   place, and the other pictures stay. A payload that is not a bare `ESC_G` command (wrapped for a
///   multiplexer) cannot take an id: then, when the set changes, every kitty picture is deleted
///   (`ESC_Ga=d,d=A`) and the current ones placed again.
public struct FrameDiffer: Sendable {
    private var previous = Frame(lines: [])
    /// The kitty image id of each placement of ``previous`` (0: placed without one); empty in other modes.
    private var previousIDs: [Frame.Placement: UInt32] = [:]
    private var lastID: UInt32 = 0
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
        previousIDs = [:]
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
            // A picture painted over with one of the same cells needs no erasing: the new one covers it.
            let covered = Set(frame.placements.filter { !previousPlacements.contains($0) }.map(Self.cells(of:)))
            for placement in gone where !covered.contains(Self.cells(of: placement)) {
                rewrite.formUnion(placement.rows.clamped(to: frame.lines.indices))
            }
        }
        var output = full ? "\u{1B}[0m\u{1B}[H\u{1B}[2J" : ""
        for index in rewrite.sorted() {
            output += "\u{1B}[\(index + 1);1H" + frame.lines[index]
        }
        changedLineCount = rewrite.count
        if mode == .kitty {
            output += kittyOutput(frame, full: full)
            previous = frame
            return output
        }
        let toDraw: [Frame.Placement]
        if erasedByText {
            toDraw = frame.placements.filter { placement in
                !previousPlacements.contains(placement) || placement.rows.contains(where: rewrite.contains)
            }
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

    /// The kitty commands that turn the previous frame's pictures into `frame`'s (see the type's rules).
    private mutating func kittyOutput(_ frame: Frame, full: Bool) -> String {
        let previousPlacements = full ? [] : previous.placements
        let changed =
            full || previousPlacements.count != frame.placements.count
            || frame.placements.contains { !previousPlacements.contains($0) }
        guard changed else {
            drawnPictureCount = 0
            return ""
        }
        let identifiable =
            !full && !previousIDs.values.contains(0)
            && frame.placements.allSatisfy { Self.takesID($0.picture.payload) }
        var output = identifiable ? "" : Self.deleteKittyPictures
        var ids: [Frame.Placement: UInt32] = [:]
        var drawn = 0
        for placement in frame.placements {
            if identifiable, let id = previousIDs[placement] {
                ids[placement] = id
                continue
            }
            let id: UInt32 = Self.takesID(placement.picture.payload) ? nextID() : 0
            ids[placement] = id
            drawn += 1
            output +=
                "\u{1B}[\(placement.row + 1);\(placement.column + 1)H"
                + Self.withID(id, placement.picture.payload)
        }
        if identifiable {
            for placement in previousPlacements where ids[placement] == nil {
                output += "\u{1B}_Ga=d,d=I,i=\(previousIDs[placement] ?? 0),q=2\u{1B}\\"
            }
        }
        previousIDs = ids
        drawnPictureCount = drawn
        return output
    }

    /// The start of a bare kitty graphics command.
    static let kittyCommand = "\u{1B}_G"

    /// Whether `payload` is a bare kitty command that an image id can be added to.
    static func takesID(_ payload: String) -> Bool { payload.hasPrefix(kittyCommand) }

    /// `payload` with `i=id,q=2,` as its first command's first keys (unchanged for id 0): `q=2` because kitty
    /// answers a command that names an image, and the answer would reach the key reader.
    static func withID(_ id: UInt32, _ payload: String) -> String {
        guard id != 0, takesID(payload) else { return payload }
        return kittyCommand + "i=\(id),q=2," + payload.dropFirst(kittyCommand.count)
    }

    private mutating func nextID() -> UInt32 {
        lastID = lastID == UInt32.max ? 1 : lastID + 1
        return lastID
    }

    /// The cells a placement covers: where it starts and its size.
    private static func cells(of placement: Frame.Placement) -> [Int] {
        [placement.row, placement.column, placement.picture.pixelColumns, placement.picture.pixelRows]
    }
}
