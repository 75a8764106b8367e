/// One frame for the terminal: its text lines and, in the image-protocol modes, the pictures placed over them.
///
/// ``lines`` has one string per terminal line, each exactly as wide as the terminal once SGR sequences are left
/// out; the cells under a placed picture are spaces. Built by ``ScreenRenderer``; written by ``FrameDiffer``.
public struct Frame: Sendable, Hashable {
    /// A picture drawn with an image protocol at a cell of the screen.
    public struct Placement: Sendable, Hashable {
        /// The line (0-based) of the picture's top-left cell.
        public var row: Int
        /// The column (0-based) of the picture's top-left cell.
        public var column: Int
        /// The picture; it covers ``TerminalPicture/pixelColumns`` × ``TerminalPicture/pixelRows`` cells.
        public var picture: TerminalPicture

        public init(row: Int, column: Int, picture: TerminalPicture) {
            self.row = row
            self.column = column
            self.picture = picture
        }

        /// The lines the picture covers.
        public var rows: Range<Int> { row..<(row + picture.pixelRows) }
    }

    /// The text lines, top to bottom.
    public var lines: [String]
    /// The pictures over the text (empty in the symbol modes, whose pictures are part of the lines).
    public var placements: [Placement]

    public init(lines: [String], placements: [Placement] = []) {
        self.lines = lines
        self.placements = placements
    }
}
