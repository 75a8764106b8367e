import Foundation
import Pinhole
import PinholeGallery
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The grid layout of the feed screen model, with a fake image loader: no terminal, no network.
@Suite(.timeLimit(scaledMinutes: 1))
@MainActor
struct FeedScreenModelGridTests {
    static func model(
        count: Int, images: GatedDataLoader = GalleryFixture.imageLoader(), layout: LayoutMode = .grid,
        renderer: ChafaRenderer = ChafaRenderer(mode: .symbols), size: TerminalSize = .init(columns: 120, rows: 40),
        imagePrefix: String = "ok"
    ) async -> FeedScreenModel {
        let (loader, _) = GalleryFixture.countingLoader(GalleryFixture.feedData(count: count, imagePrefix: imagePrefix))
        let model = FeedScreenModel(
            feedURL: GalleryFixture.feedURL, loader: loader, pipeline: GalleryFixture.pipeline(images),
            favouritesStore: nil, locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "UTC")!,
            size: size, layoutMode: layout, renderer: renderer)
        await model.load()
        return model
    }

    @Test func gridFillsA120x40TerminalWithSquareTiles() {
        // Given a 120×40 terminal with 10×20-pixel cells
        let layout = ScreenLayout(size: TerminalSize(columns: 120, rows: 40), mode: .grid)
        // Then 6 tiles of 19×10 cells (190×200 pixels: square within a cell) fit in a row, 3 rows on screen
        #expect(layout.tilesPerRow == 6 && layout.tileColumns == 19 && layout.tileRows == 10)
        #expect(layout.tileRowsPerScreen == 3 && layout.visibleRowCount == 18)
        #expect(layout.tileOrigin(0) == (1, 1) && layout.tileOrigin(7) == (21, 12))
        // And with xterm's 8×17-pixel cells the tiles are 19×9 cells (152×153 pixels)
        let xterm = layout.with(cellPixelSize: CellPixelSize(width: 8, height: 17))
        #expect(xterm.tileColumns == 19 && xterm.tileRows == 9 && xterm.visibleRowCount == 18)
    }

    @Test func gKeySwitchesToTheGridAndRequestsFilledTilesAtTheirPixelSize() async {
        // Given a loaded 60-item list
        let model = await Self.model(count: 60, layout: .list)
        #expect(model.boundRowIndices == Array(0..<7))
        #expect(model.slot(forRow: 0)?.request?.thumbnail?.maxPixelSize == 140)
        // When g is pressed
        model.handle(.toggleLayout)
        // Then 18 tiles are bound, each asked of the pipeline filled (covered, centre cut) at the tile's pixel size
        // (19×10 cells of 10×20 pixels)
        #expect(model.layout.mode == .grid)
        #expect(model.boundRowIndices == Array(0..<18))
        #expect(
            model.slot(forRow: 0)?.request?.thumbnail
                == ThumbnailOptions(size: PixelSize(width: 190, height: 200), contentMode: .fill(crop: .centre)))
        guard case .grid(let grid) = model.screenState().content else {
            Issue.record("expected the grid")
            return
        }
        #expect(grid.rows.count == 18)
        // And g again goes back to the list
        model.handle(.toggleLayout)
        #expect(model.layout.mode == .list && model.boundRowIndices == Array(0..<7))
    }

    @Test func arrowsMoveByTileAndByRowAndTheScreenScrollsByRows() async {
        // Given a 60-item grid (6 tiles a row, 3 rows on screen)
        let model = await Self.model(count: 60)
        // When → ↓ ↓ ↓ are pressed
        model.handle(.right)
        #expect(model.selectedIndex == 1)
        model.handle(.down)
        model.handle(.down)
        #expect(model.selectedIndex == 13 && model.firstVisibleIndex == 0)
        model.handle(.down)
        // Then the selection is on the fourth row and the screen scrolled by one row of tiles
        #expect(model.selectedIndex == 19 && model.firstVisibleIndex == 6)
        #expect(model.boundRowIndices == Array(6..<24))
        // And a page moves 18 items; End shows the last rows, starting on a row boundary
        model.handle(.pageDown)
        #expect(model.selectedIndex == 37)
        model.handle(.end)
        #expect(model.selectedIndex == 59 && model.firstVisibleIndex == 42)
        #expect(model.firstVisibleIndex % model.layout.tilesPerRow == 0)
    }

    @Test func tilesAreDrawnFilledAtTheTileSize() async {
        // Given a grid whose images load
        let model = await Self.model(count: 20)
        // When it settles
        #expect(await eventually { model.isSettled })
        // Then every tile shows a picture of the tile's box and the frame has the titles as captions
        guard case .grid(let grid) = model.screenState().content else {
            Issue.record("expected the grid")
            return
        }
        for row in grid.rows {
            guard case .image(let picture) = row.thumbnail else {
                Issue.record("tile \(row.index) shows \(row.thumbnail)")
                continue
            }
            #expect(picture.columns == 19 && picture.rows == 10)
        }
        #expect(model.imagesShown == 18)
        let frame = ScreenRenderer.frame(model.screenState(), layout: model.layout)
        #expect(frame.lines[11].contains("Photo 1") && frame.lines[11].contains("Photo 6"))
        #expect(frame.lines.count == 40 && frame.placements.isEmpty)
    }

    @Test func sixelTilesArePlacedOverTheGrid() async {
        // Given a grid drawn with sixel in xterm's 8×17-pixel cells
        let renderer = ChafaRenderer(mode: .sixel, cellPixelSize: CellPixelSize(width: 8, height: 17))
        let model = await Self.model(count: 8, renderer: renderer)
        #expect(await eventually { model.isSettled })
        // When the frame is built
        let frame = ScreenRenderer.frame(model.screenState(), layout: model.layout)
        // Then each tile is a sixel placement at its tile's origin, covering the whole tile
        #expect(frame.placements.count == 8)
        #expect(frame.placements.first.map { ($0.row, $0.column) } ?? (0, 0) == (1, 1))
        #expect(frame.placements.allSatisfy { $0.picture.pixelColumns == 19 && $0.picture.pixelRows == 9 })
        #expect(frame.placements.allSatisfy { $0.picture.payload.hasPrefix("\u{1B}P") })
    }
}
