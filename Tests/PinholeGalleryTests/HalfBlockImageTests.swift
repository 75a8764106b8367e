import Pinhole
import PinholeGallery
import PinholeTestSupport
import Testing

@Suite(.timeLimit(scaledMinutes: 1))
struct HalfBlockImageTests {
    typealias Color = HalfBlockImage.Color

    @Test func upperPixelIsForegroundAndLowerPixelIsBackground() {
        // Given a 2×2 image: red, green on top; blue, white below
        let pixels: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]
        let image = PixelImage(width: 2, height: 2, pixelFormat: .rgb8, pixels: pixels)
        // When it is converted to 2 × 1 cells
        let cells = HalfBlockImage(image, columns: 2, rows: 1)
        // Then each cell has the top pixel as foreground and the bottom pixel as background
        #expect(cells.cells[0][0] == .init(top: Color(r: 255, g: 0, b: 0), bottom: Color(r: 0, g: 0, b: 255)))
        #expect(cells.cells[0][1] == .init(top: Color(r: 0, g: 255, b: 0), bottom: Color(r: 255, g: 255, b: 255)))
        #expect(
            cells.lines == [
                "\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀\u{1B}[38;2;0;255;0m\u{1B}[48;2;255;255;255m▀\u{1B}[0m"
            ])
    }

    @Test func repeatedColoursAreNotRepeatedInTheOutput() {
        // Given a uniform 4×2 grey image
        let image = PixelImage(width: 4, height: 2, pixelFormat: .gray8, pixels: [UInt8](repeating: 90, count: 8))
        // When it is converted to 4 × 1 cells
        let cells = HalfBlockImage(image, columns: 4, rows: 1)
        // Then the colours are set once and four half blocks follow
        #expect(cells.lines == ["\u{1B}[38;2;90;90;90m\u{1B}[48;2;90;90;90m▀▀▀▀\u{1B}[0m"])
    }

    @Test func pictureIsFittedCentredAndAveraged() {
        // Given a 4×2 image: left half black, right half white
        var pixels: [UInt8] = []
        for _ in 0..<2 { pixels += [0, 0, 255, 255] }
        let image = PixelImage(width: 4, height: 2, pixelFormat: .gray8, pixels: pixels)
        // When it is fitted into 2 × 2 cells (a 2×4 pixel box)
        let background = Color(r: 1, g: 2, b: 3)
        let cells = HalfBlockImage(image, columns: 2, rows: 2, background: background)
        // Then it becomes 2×1 pixels (aspect kept), averaged, centred vertically on the background
        #expect(cells.columns == 2 && cells.rows == 2)
        #expect(cells.cells[0][0].top == background)
        #expect(cells.cells[0][0].bottom == Color(r: 0, g: 0, b: 0))
        #expect(cells.cells[0][1].bottom == Color(r: 255, g: 255, b: 255))
        #expect(cells.cells[1][0].top == background && cells.cells[1][1].bottom == background)
    }

    @Test func transparentPixelsShowTheBackground() {
        // Given a half-transparent red pixel over a fully transparent one
        let image = PixelImage(width: 1, height: 2, pixelFormat: .rgba8, pixels: [255, 0, 0, 128, 9, 9, 9, 0])
        // When it is converted over black
        let cells = HalfBlockImage(image, columns: 1, rows: 1, background: Color(r: 0, g: 0, b: 0))
        // Then alpha is composited
        #expect(cells.cells[0][0].top == Color(r: 128, g: 0, b: 0))
        #expect(cells.cells[0][0].bottom == Color(r: 0, g: 0, b: 0))
    }
}
