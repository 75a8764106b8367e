import Foundation
import Pinhole
import PinholeGallery
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The built `pinhole gallery --layout grid` over the demo feed of real photos, in a 120×40 tmux pane (tmux passes
/// no image protocol through, so libchafa draws symbols in 24-bit colour).
@Suite(.timeLimit(scaledMinutes: 4))
struct GalleryGridEndToEndTests {
    @Test func gridShowsAtLeastTwelveColourfulThumbnailsIn120x40() async throws {
        // Given the photo corpus (the demo feed serves it over loopback HTTP) and a 120×40 tmux pane
        let corpus = PhotoCorpus.directory()
        try #require(
            FileManager.default.fileExists(atPath: corpus.appendingPathComponent("MANIFEST.tsv").path),
            "no photo corpus at \(corpus.path): run `make corpus` (or set PINHOLE_CORPUS)")
        let scratchDirectory = try TemporaryDirectory(prefix: "pinhole-grid")
        defer { scratchDirectory.remove() }
        let scratch = scratchDirectory.url
        let tmux = Tmux()
        let command =
            "env PINHOLE_CORPUS='\(corpus.path)' XDG_DATA_HOME='\(scratch.path)' '\(Tmux.binary)' gallery "
            + "--layout grid "
            + "--stats-json '\(scratch.path)/stats.json'; sleep 120"
        try await tmux.run(["new-session", "-d", "-s", "gallery", "-x", "120", "-y", "40", command])
        do {
            try await checkGrid(in: tmux, scratch: scratch)
        } catch {
            await tmux.killServer()
            throw error
        }
        await tmux.killServer()
    }

    private func checkGrid(in tmux: Tmux, scratch: URL) async throws {
        // The grid's geometry in tmux (which reports no pixel size: 10×20-pixel cells are assumed)
        let layout = ScreenLayout(size: TerminalSize(columns: 120, rows: 40), mode: .grid)
        let tiles = (0..<layout.visibleRowCount).map(layout.tileOrigin)
        func drawnTiles(_ cells: PaneCells) -> Int {
            tiles.filter { origin in
                cells.colouredShare(
                    columns: origin.column..<(origin.column + layout.tileColumns),
                    rows: origin.row..<(origin.row + layout.tileRows)) > 0.9
            }.count
        }
        // The status line's count of thumbnails shown (a tile is coloured by its ThumbHash placeholder before that)
        func shown(_ pane: String) -> Int {
            pane.firstMatch(of: /· shown (\d+)/).flatMap { Int($0.1) } ?? 0
        }
        // When the demo's first screen of tiles has loaded (every tile coloured, at least 12 thumbnails shown)
        let pane = try await tmux.waitForPane(escapes: true, timeout: .seconds(150)) { pane in
            drawnTiles(PaneCells(capture: pane)) == tiles.count && shown(pane) >= 12
        }
        let cells = PaneCells(capture: pane)
        // Then at least 12 tiles (18 fit) are covered with truecolor cells, in at least 200 distinct colours,
        // each with its caption
        #expect(drawnTiles(cells) >= 12, "\(drawnTiles(cells)) of \(tiles.count) tiles drawn")
        #expect(cells.truecolorValues.count >= 200, "\(cells.truecolorValues.count) distinct truecolor values")
        #expect(pane.contains("Aitzgorri"), "the first caption")
        #expect(pane.contains("symbols · frame p50"))
        // And q quits with the grid's frame figures in the stats
        try await tmux.run(["send-keys", "-t", "gallery", "q"])
        let statsPath = scratch.path + "/stats.json"
        _ = try await tmux.waitForPane { _ in FileManager.default.fileExists(atPath: statsPath) }
        let stats = try await WorkerThreadPool.io.run { try? Data(contentsOf: URL(fileURLWithPath: statsPath)) }
        let figures = try JSONSerialization.jsonObject(with: try #require(stats)) as? [String: Any]
        let grid = (figures?["views"] as? [String: Any])?["grid"] as? [String: Any]
        #expect((grid?["frames"] as? Int ?? 0) > 0)
        #expect((figures?["imagesShown"] as? Int ?? 0) >= 12)
    }
}
