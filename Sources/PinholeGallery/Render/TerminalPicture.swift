/// The size of one terminal cell in pixels, as the terminal reports it (`CSI 16 t`, or the pixel fields of
/// `TIOCGWINSZ` divided by the cell counts).
public struct CellPixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Width of a cell in pixels (≥ 1).
    public var width: Int
    /// Height of a cell in pixels (≥ 1).
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    /// 10 × 20 pixels: the usual 1:2 cell of a monospace font, assumed when the terminal does not say.
    public static let assumed = CellPixelSize(width: 10, height: 20)

    public var description: String { "\(width)×\(height)px" }
}

/// A picture drawn for a terminal by libchafa, ready to write: either text lines (symbol modes) or one escape
/// sequence (image protocols). Made off the main actor by ``ChafaRenderer``; `Sendable` and cheap to copy.
///
/// Shape: the picture fills a box of ``columns`` × ``rows`` cells. It was fitted inside that box (aspect kept,
/// centred) or cut to fill it (see ``ChafaRenderer/Fit``).
/// - Symbol modes: ``lines`` has ``rows`` strings, each exactly ``columns`` cells wide once SGR sequences are
///   left out, each ending with `ESC[0m`; ``payload`` is empty.
/// - Image protocols: ``lines`` is empty; ``payload`` draws the picture at the cursor and covers
///   ``pixelColumns`` × ``pixelRows`` cells starting ``pixelOffset`` cells into the box.
public struct TerminalPicture: Sendable, Hashable {
    /// The mode it was drawn in.
    public let mode: GraphicsMode
    /// Width of the box in cells.
    public let columns: Int
    /// Height of the box in cells.
    public let rows: Int
    /// Symbol modes: one printable string per cell row. Empty for the image protocols.
    public let lines: [String]
    /// Image protocols: the escape sequence that draws the picture at the cursor. Empty for symbol modes.
    public let payload: String
    /// Image protocols: where the picture starts inside the box (cells from its left and top edge).
    public let pixelOffset: (column: Int, row: Int)
    /// Image protocols: the cells the picture covers.
    public let pixelColumns: Int
    public let pixelRows: Int

    /// A symbol picture.
    public init(mode: GraphicsMode, columns: Int, rows: Int, lines: [String]) {
        self.mode = mode
        self.columns = columns
        self.rows = rows
        self.lines = lines
        self.payload = ""
        self.pixelOffset = (0, 0)
        self.pixelColumns = 0
        self.pixelRows = 0
    }

    /// An image-protocol picture covering `pixelColumns` × `pixelRows` cells at `pixelOffset` in the box.
    public init(
        mode: GraphicsMode, columns: Int, rows: Int, payload: String, pixelOffset: (column: Int, row: Int),
        pixelColumns: Int, pixelRows: Int
    ) {
        self.mode = mode
        self.columns = columns
        self.rows = rows
        self.lines = []
        self.payload = payload
        self.pixelOffset = pixelOffset
        self.pixelColumns = pixelColumns
        self.pixelRows = pixelRows
    }

    /// Bytes the picture's text takes: the cost counted by ``PictureCache``.
    public var cost: Int { payload.utf8.count + lines.reduce(0) { $0 + $1.utf8.count } }

    public static func == (lhs: TerminalPicture, rhs: TerminalPicture) -> Bool {
        lhs.mode == rhs.mode && lhs.columns == rhs.columns && lhs.rows == rhs.rows
            && lhs.pixelOffset == rhs.pixelOffset && lhs.pixelColumns == rhs.pixelColumns
            && lhs.pixelRows == rhs.pixelRows && lhs.lines == rhs.lines && lhs.payload == rhs.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mode)
        hasher.combine(columns)
        hasher.combine(rows)
        hasher.combine(payload.utf8.count)
        hasher.combine(lines.first)
    }
}
