import PinholeGallery
import PinholeTestSupport
import Testing

/// Choosing the graphics mode, colours and cell size from the environment and the terminal's replies.
@Suite(.timeLimit(scaledMinutes: 1))
struct GraphicsDetectionTests {
    static let da1Sixel = "\u{1B}[?63;1;2;4;6;9;15;16;22;28c"  // xterm -ti vt340
    static let da1Plain = "\u{1B}[?62;22c"

    @Test func parsesKittyCellSizeTextAreaAndSixelReplies() {
        // Given the replies of a terminal that has everything, with a key typed in between
        let bytes = Array(
            ("\u{1B}_Gi=31;OK\u{1B}\\" + "\u{1B}[6;17;8t" + "j" + "\u{1B}[4;680;960t" + Self.da1Sixel).utf8)
        // When they are parsed
        let replies = TerminalReplies(parsing: bytes)
        // Then each answer is read and the Device Attributes mark the end
        #expect(replies.supportsKittyGraphics && replies.supportsSixel && replies.isComplete)
        #expect(replies.cellPixelSize == CellPixelSize(width: 8, height: 17))
        #expect(replies.textAreaPixels?.width == 960 && replies.textAreaPixels?.height == 680)
    }

    @Test func deviceAttributesWithoutFourMeanNoSixelAndAKittyErrorIsNotSupport() {
        let replies = TerminalReplies(parsing: Array(("\u{1B}_Gi=31;ENOTSUPPORTED\u{1B}\\" + Self.da1Plain).utf8))
        #expect(!replies.supportsKittyGraphics && !replies.supportsSixel && replies.isComplete)
        #expect(replies.cellPixelSize == nil)
        // A conformance level of 4 is not the sixel attribute either
        #expect(!TerminalReplies(parsing: Array("\u{1B}[?4;22c".utf8)).supportsSixel)
        // And an incomplete reply is not complete
        #expect(!TerminalReplies(parsing: Array("\u{1B}[?63;4".utf8)).isComplete)
    }

    @Test(arguments: [
        (["TERM": "xterm-kitty"], nil as String?, GraphicsMode.kitty),
        (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"], nil, .kitty),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], nil, .iterm),
        (["TERM": "xterm-256color", "LC_TERMINAL": "iTerm2"], nil, .iterm),
        (["TERM": "foot"], nil, .sixel),
        (["TERM": "xterm"], da1Sixel, .sixel),
        (["TERM": "xterm-256color"], "\u{1B}_Gi=31;OK\u{1B}\\" + da1Plain, .kitty),
        (["TERM": "xterm-256color"], da1Plain, .symbols),
        (["TERM": "xterm-256color"], nil, .symbols),
        (["TERM": "screen", "TMUX": "/tmp/tmux-0/default,1,0"], da1Sixel, .symbols),
        (["TERM": "tmux-256color"], "\u{1B}_Gi=31;OK\u{1B}\\" + da1Sixel, .symbols),
    ])
    func choosesTheBestModeTheTerminalSupports(environment: [String: String], reply: String?, expected: GraphicsMode) {
        let replies = reply.map { TerminalReplies(parsing: Array($0.utf8)) }
        #expect(GraphicsDetection.mode(environment: environment, replies: replies) == expected)
    }

    @Test(arguments: [
        (["TERM": "xterm-256color"], ColorDepth.truecolor),
        (["TERM": "xterm", "COLORTERM": "truecolor"], .truecolor),
        (["TERM": "screen", "TMUX": "/tmp/tmux-0/default,1,0"], .truecolor),
        (["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"], .truecolor),
        (["TERM": "xterm"], .palette256),
        (["TERM": "linux"], .palette16),
    ])
    func colourDepthIsLibchafasChoiceForTheTerminal(environment: [String: String], expected: ColorDepth) {
        #expect(GraphicsDetection.capabilities(environment: environment).colorDepth == expected)
    }

    @Test func cellSizeComesFromTheReplyElseThePixelAreaElseNothing() {
        let size = TerminalSize(columns: 120, rows: 40)
        let reply = TerminalReplies(parsing: Array("\u{1B}[6;20;9t\u{1B}[4;680;960t".utf8))
        #expect(
            GraphicsDetection.cellPixelSize(replies: reply, windowPixels: (1200, 800), size: size)
                == CellPixelSize(width: 9, height: 20))
        let area = TerminalReplies(parsing: Array("\u{1B}[4;680;960t".utf8))
        #expect(
            GraphicsDetection.cellPixelSize(replies: area, windowPixels: nil, size: size)
                == CellPixelSize(width: 8, height: 17))
        #expect(
            GraphicsDetection.cellPixelSize(replies: nil, windowPixels: (1200, 800), size: size)
                == CellPixelSize(width: 10, height: 20))
        #expect(GraphicsDetection.cellPixelSize(replies: nil, windowPixels: nil, size: size) == nil)
        #expect(GraphicsDetection.cellPixelSize(replies: nil, windowPixels: (120, 40), size: size) == nil)
    }
}
