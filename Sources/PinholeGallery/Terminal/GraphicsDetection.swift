import CChafa

/// Chooses the ``GraphicsMode``, the ``ColorDepth`` and the cell size from the environment and the terminal's
/// replies: pure functions, so every rule is tested without a terminal.
///
/// What the environment says comes from libchafa's terminal database (`chafa_term_db_detect`, which reads `TERM`,
/// `COLORTERM`, `TERM_PROGRAM`, `LC_TERMINAL`, `VTE_VERSION`, `KONSOLE_VERSION`, `TMUX`, …) plus `KITTY_WINDOW_ID`.
public enum GraphicsDetection {
    /// What libchafa's terminal database knows of the terminal named by `environment`.
    public struct EnvironmentCapabilities: Sendable, Equatable {
        public var kitty = false
        public var iterm = false
        public var sixel = false
        public var colorDepth = ColorDepth.palette256
    }

    /// libchafa's view of the terminal, plus `KITTY_WINDOW_ID` (set by kitty in every window).
    public static func capabilities(environment: [String: String]) -> EnvironmentCapabilities {
        let variables = environment.filter { ChafaRenderer.terminalVariables.contains($0.key) }
            .map { "\($0.key)=\($0.value)" }
        var strings = variables.map { strdup($0) } + [nil]
        defer { for string in strings { free(string) } }
        guard
            let info = strings.withUnsafeMutableBufferPointer({
                chafa_term_db_detect(chafa_term_db_get_default(), $0.baseAddress)
            })
        else { return EnvironmentCapabilities() }
        defer { chafa_term_info_unref(info) }
        var capabilities = EnvironmentCapabilities()
        capabilities.kitty =
            chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1) != 0
            || !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty
        capabilities.iterm = chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE) != 0
        capabilities.sixel = chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_SIXELS) != 0
        // libchafa 1.12 trusts tmux with truecolor only when TERM is screen*; tmux ≥ 2.9 sets tmux-256color, with
        // the same support, so TMUX decides.
        if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_DIRECT) != 0
            || !(environment["TMUX"] ?? "").isEmpty
        {
            capabilities.colorDepth = .truecolor
        } else if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FGBG_256) != 0 {
            capabilities.colorDepth = .palette256
        } else {
            capabilities.colorDepth = .palette16
        }
        return capabilities
    }

    /// Whether the program runs inside tmux or GNU screen, which do not pass libchafa 1.12's image sequences
    /// through to the outer terminal.
    public static func isMultiplexed(environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        return !(environment["TMUX"] ?? "").isEmpty || term.hasPrefix("screen") || term.hasPrefix("tmux")
    }

    /// The best mode: inside tmux or screen, symbols; else kitty or iTerm2 when the environment names such a
    /// terminal; else kitty when the terminal answered the kitty graphics query; else sixel when its Device
    /// Attributes list sixel graphics or the environment names a sixel terminal; else symbols.
    ///
    /// - Parameters:
    ///   - environment: the process environment.
    ///   - replies: the terminal's replies, or `nil` when it was not asked (output not a terminal).
    public static func mode(environment: [String: String], replies: TerminalReplies?) -> GraphicsMode {
        if isMultiplexed(environment: environment) { return .symbols }
        let known = capabilities(environment: environment)
        if known.kitty { return .kitty }
        if known.iterm { return .iterm }
        if replies?.supportsKittyGraphics == true { return .kitty }
        if replies?.supportsSixel == true || known.sixel { return .sixel }
        return .symbols
    }

    /// The cell size: the terminal's `CSI 16 t` reply, else its text area (`CSI 14 t`) or the pixel fields of
    /// `TIOCGWINSZ` divided by the cell counts, else `nil` (the caller assumes ``CellPixelSize/assumed``).
    ///
    /// - Parameters:
    ///   - replies: the terminal's replies, if it was asked.
    ///   - windowPixels: `ws_xpixel` × `ws_ypixel` from `TIOCGWINSZ`, when not zero.
    ///   - size: the terminal's size in cells.
    public static func cellPixelSize(
        replies: TerminalReplies?, windowPixels: (width: Int, height: Int)?, size: TerminalSize
    ) -> CellPixelSize? {
        if let cell = replies?.cellPixelSize { return cell }
        guard size.columns > 0, size.rows > 0 else { return nil }
        for area in [replies?.textAreaPixels, windowPixels].compactMap({ $0 }) where area.width > 0 && area.height > 0 {
            let width = area.width / size.columns
            let height = area.height / size.rows
            if width >= 2 && height >= 2 { return CellPixelSize(width: width, height: height) }
        }
        return nil
    }
}
