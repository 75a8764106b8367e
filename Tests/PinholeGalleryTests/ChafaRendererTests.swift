import Foundation
import Pinhole
import PinholeGallery
import PinholeTestSupport
import Testing

/// Pictures drawn by libchafa: recorded snapshots of the symbol output for fixed images and cell sizes (libchafa is
/// deterministic for a fixed configuration), and the geometry of fitted and filled boxes.
@Suite(.timeLimit(scaledMinutes: 1))
struct ChafaRendererTests {
    /// `text` without its SGR sequences.
    static func visible(_ text: String) -> String { text.replacing(/\e\[[0-9;]*m/, with: "") }

    /// Each snapshot: name, renderer, image, box and fit.
    typealias Entry = (
        name: String, renderer: ChafaRenderer, image: PixelImage, box: (Int, Int), fit: ChafaRenderer.Fit
    )
    static let cells8x16 = CellPixelSize(width: 8, height: 16)
    static let snapshots: [Entry] = [
        ("chafa-symbols-truecolor-14x4", ChafaRenderer(mode: .symbols), ChafaFixtures.gradient, (14, 4), .fit),
        (
            "chafa-symbols-256-14x4", ChafaRenderer(mode: .symbols, colorDepth: .palette256), ChafaFixtures.gradient,
            (14, 4), .fit
        ),
        ("chafa-halfblocks-14x4", ChafaRenderer(mode: .halfblocks), ChafaFixtures.gradient, (14, 4), .fit),
        (
            "chafa-symbols-fill-8x4-cells-8x16", ChafaRenderer(mode: .symbols, cellPixelSize: cells8x16),
            ChafaFixtures.thirds, (8, 4), .fill
        ),
        (
            "chafa-sixel-6x2-cells-8x16", ChafaRenderer(mode: .sixel, cellPixelSize: cells8x16),
            ChafaFixtures.thirds, (6, 2), .fit
        ),
    ]

    @Test(arguments: snapshots.map(\.name))
    func pictureMatchesRecordedSnapshot(_ name: String) async throws {
        // Given a fixed image, box, mode and cell size
        let entry = try #require(Self.snapshots.first { $0.name == name })
        // When libchafa draws it
        let picture = entry.renderer.render(entry.image, columns: entry.box.0, rows: entry.box.1, fit: entry.fit)
        // Then the text is the recorded one (lines for symbols, the escape sequence for sixel)
        try await Snapshot.expect(picture.mode.drawsPixels ? [picture.payload] : picture.lines, matches: name)
    }

    @Test(arguments: [GraphicsMode.symbols, .halfblocks])
    func symbolLinesFillTheBoxExactly(_ mode: GraphicsMode) {
        // Given a 3:1 image in a 14×4 box of 10×20-pixel cells
        let picture = ChafaRenderer(mode: mode).render(ChafaFixtures.thirds, columns: 14, rows: 4)
        // Then there is one line per cell row, each 14 columns wide without its SGR sequences, ending with a reset
        #expect(picture.lines.count == 4)
        for line in picture.lines {
            #expect(Self.visible(line).count == 14, "\(line)")
        }
        // And the 140×47-pixel picture (3:1 in 140 pixels) takes 14×2 cells, centred: a blank row above and below
        #expect(picture.lines[0].trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(picture.lines[1].hasSuffix("\u{1B}[0m") && picture.lines[2].contains("\u{1B}[38;2;"))
        #expect(picture.lines[3].trimmingCharacters(in: .whitespaces).isEmpty)
    }

    @Test func halfblocksUseOnlyHalfAndFullBlocksAndSpaces() {
        // Given the gradient drawn with half blocks
        let picture = ChafaRenderer(mode: .halfblocks).render(ChafaFixtures.gradient, columns: 14, rows: 4)
        // Then every drawn character is a half block, a full block or a space
        let characters = Set(Self.visible(picture.lines.joined()))
        #expect(characters.isSubset(of: ["▀", "▄", "█", " "]), "\(characters)")
        #expect(characters.contains("▀") || characters.contains("▄"))
    }

    @Test func fillCutsTheCentreToTheBoxAspect() {
        // Given a 3:1 image (red, green, blue thirds) filling a square box of 8×4 cells of 8×16 pixels (64×64)
        let renderer = ChafaRenderer(mode: .symbols, cellPixelSize: CellPixelSize(width: 8, height: 16))
        let picture = renderer.render(ChafaFixtures.thirds, columns: 8, rows: 4, fit: .fill)
        // Then the box is filled with the middle third only: green, no red or blue
        let text = picture.lines.joined()
        #expect(text.contains("0;255;0"))
        #expect(!text.contains("255;0;0") && !text.contains("0;0;255"), "\(text)")
        // And fitting instead shows all three thirds
        let fitted = renderer.render(ChafaFixtures.thirds, columns: 8, rows: 4, fit: .fit).lines.joined()
        #expect(fitted.contains("255;0;0") && fitted.contains("0;255;0") && fitted.contains("0;0;255"))
    }

    @Test func sixelPictureCoversTheFittedCellsInPixels() {
        // Given a 3:1 image in a 12×4 box of 10×20-pixel cells (120×80 pixels)
        let picture = ChafaRenderer(mode: .sixel).render(ChafaFixtures.thirds, columns: 12, rows: 4)
        // Then the picture is 12×2 cells (120×40 pixels, aspect kept), centred in the box, one sixel sequence
        #expect(picture.pixelColumns == 12 && picture.pixelRows == 2)
        #expect(picture.pixelOffset.column == 0 && picture.pixelOffset.row == 1)
        #expect(picture.lines.isEmpty)
        #expect(picture.payload.hasPrefix("\u{1B}P") && picture.payload.hasSuffix("\u{1B}\\"))
        #expect(picture.payload.contains("\"1;1;120;36"), "raster 120 × 36 (40 rounded down to sixes)")
    }

    @Test func kittyAndITermPicturesUseTheirProtocols() {
        // Given the same image in the kitty and iTerm2 modes
        let kitty = ChafaRenderer(mode: .kitty).render(ChafaFixtures.gradient, columns: 7, rows: 2)
        let iterm = ChafaRenderer(mode: .iterm).render(ChafaFixtures.gradient, columns: 7, rows: 2)
        // Then each is one escape sequence of its protocol, sized in cells
        #expect(kitty.payload.hasPrefix("\u{1B}_Ga=T,f=32,") && kitty.payload.contains(",c=7,r=2,"))
        #expect(iterm.payload.hasPrefix("\u{1B}]1337;File=inline=1;width=7;height=2;"))
    }

    @Test(arguments: [PixelImage.PixelFormat.rgba8, .rgb8, .gray8])
    func everyPixelFormatIsDrawn(_ format: PixelImage.PixelFormat) {
        // Given a mid-grey 31×7 image (odd widths: rows that are not a multiple of 4 bytes) in each layout
        let bytes = [UInt8](repeating: 128, count: 31 * 7 * format.bytesPerPixel)
        let image = PixelImage(width: 31, height: 7, pixelFormat: format, pixels: bytes)
        // When drawn with symbols
        let picture = ChafaRenderer(mode: .symbols).render(image, columns: 10, rows: 2)
        // Then the colour is the grey, whatever the layout (alpha 128 straight: composited by libchafa)
        let text = picture.lines.joined()
        #expect(format == .rgba8 || text.contains("128;128;128"), "\(text)")
        #expect(text.contains("\u{1B}["))
    }

    @Test func drawingIsDeterministic() {
        // Given the same inputs twice
        let renderer = ChafaRenderer(mode: .symbols)
        let first = renderer.render(ChafaFixtures.gradient, columns: 14, rows: 4)
        let second = renderer.render(ChafaFixtures.gradient, columns: 14, rows: 4)
        // Then the same text comes out
        #expect(first == second)
    }

    @Test func fittedCellsKeepTheAspectRatioForTheCellSize() {
        // Given 10×20-pixel cells and a 14×4-cell box (140×80 pixels)
        let renderer = ChafaRenderer(mode: .sixel)
        // Then a 3:2 photo takes 12×4 cells, a portrait 2:3 one 5×4, a 1×1 pixel one the whole height
        #expect(renderer.fittedCells(width: 3000, height: 2000, columns: 14, rows: 4) == (12, 4))
        #expect(renderer.fittedCells(width: 2000, height: 3000, columns: 14, rows: 4) == (5, 4))
        #expect(renderer.fittedCells(width: 1, height: 1, columns: 14, rows: 4) == (8, 4))
    }
}
