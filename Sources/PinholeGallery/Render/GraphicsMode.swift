/// How pictures are drawn in the terminal: with one of the three image protocols, or with coloured Unicode
/// symbols. Every mode is drawn by libchafa (``ChafaRenderer``).
///
/// - ``kitty``: the kitty graphics protocol (`ESC _G … ESC \`; kitty, WezTerm, Ghostty, Konsole):
///   RGBA pixels, drawn above the text layer.
/// - ``iterm``: iTerm2 inline images (`ESC ]1337;File=…`; iTerm2, WezTerm, mintty).
/// - ``sixel``: DEC sixel graphics (`ESC P … q … ESC \`; xterm `-ti vt340`, foot, mlterm, WezTerm, Konsole),
///   a palette of up to 256 colours per picture, painted into the cells.
/// - ``symbols``: block, border and space symbols with foreground and background colours (truecolor, 256 or 16
///   colours, whatever the terminal has), the choice of symbol per cell made by libchafa.
/// - ``halfblocks``: only `▀`/`▄` half blocks, full blocks and spaces: two colour pixels per cell, the
///   most widely supported picture a terminal can show.
public enum GraphicsMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case kitty
    case iterm
    case sixel
    case symbols
    case halfblocks

    /// `true` for the image protocols (``kitty``, ``iterm``, ``sixel``): the picture is one escape sequence
    /// that covers a rectangle of cells, not a line of text per cell row.
    public var drawsPixels: Bool {
        switch self {
        case .kitty, .iterm, .sixel: true
        case .symbols, .halfblocks: false
        }
    }

    /// Whether writing text over the picture's cells erases it (sixel and iTerm2 pictures are painted into the
    /// cells); kitty pictures live on a layer of their own and must be deleted explicitly.
    public var isErasedByText: Bool {
        self == .sixel || self == .iterm
    }

    /// The mode named `text` (`kitty`, `iterm`, `sixel`, `symbols`, `halfblocks`), or `nil`.
    public init?(argument text: String) {
        self.init(rawValue: text.lowercased())
    }

    public var description: String { rawValue }
}

/// How many colours the terminal shows for text cells (the ``GraphicsMode/symbols`` and
/// ``GraphicsMode/halfblocks`` modes); the image protocols have their own colour handling.
public enum ColorDepth: String, Sendable, Hashable, CaseIterable {
    /// 24-bit colour (`ESC[38;2;r;g;bm`).
    case truecolor
    /// The 256-colour palette (`ESC[38;5;Nm`).
    case palette256
    /// The 16 ANSI colours.
    case palette16
}
