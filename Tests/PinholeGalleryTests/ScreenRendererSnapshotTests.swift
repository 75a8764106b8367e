import Foundation
import Pinhole
import PinholeGallery
import PinholeTestSupport
import Testing

/// The renderer is a pure function of ``ScreenState`` and the terminal size: these frames are compared with
/// recorded text files (see ``Snapshot``).
@Suite(.timeLimit(scaledMinutes: 1))
struct ScreenRendererSnapshotTests {
    static let status =
        "frame p50 0.3ms p99 2.1ms · hitches 0 · hangs 0 · threads 14 · in flight 2+0 · mem hits 5 · shown 4"

    /// A 28×16 gradient (red grows to the right, green downwards) drawn by libchafa with symbols.
    static func gradient(columns: Int, rows: Int, fit: ChafaRenderer.Fit = .fit) -> TerminalPicture {
        ChafaRenderer(mode: .symbols).render(ChafaFixtures.gradient, columns: columns, rows: rows, fit: fit)
    }

    static func listState(size: TerminalSize, favourites: Set<Int> = [], message: String? = nil) -> ScreenState {
        let layout = ScreenLayout(size: size)
        let thumbnails: [ScreenState.Thumbnail] = [
            .image(gradient(columns: layout.thumbnailColumns, rows: layout.thumbnailRows)),
            .image(gradient(columns: layout.thumbnailColumns, rows: layout.thumbnailRows)),
            .loading, .failed("HTTP 404"), .none,
            .image(gradient(columns: layout.thumbnailColumns, rows: layout.thumbnailRows)), .loading,
        ]
        let rows = (0..<min(layout.visibleRowCount, thumbnails.count)).map { index in
            ScreenState.Row(
                index: index, title: "Photo \(index + 1): a kite over the dunes at dusk, seen from the old lighthouse",
                date: "Mar \(4 + index), 2026", summary: "jpeg 4000×3000 · CC-BY-4.0",
                isFavourite: favourites.contains(index),
                isSelected: index == 1, thumbnail: thumbnails[index])
        }
        return ScreenState(
            title: "Test photos",
            content: .list(.init(rows: rows, totalCount: 200, favouriteCount: favourites.count)),
            message: message, status: status)
    }

    /// Computed on each use, not stored: held in a stored global, the full view's picture (inside enum payloads)
    /// was reported by LeakSanitizer as leaked, though nothing retains it (the same values built and dropped in
    /// a test are freed); a stored global gains nothing here.
    static var states: [(name: String, state: ScreenState, size: TerminalSize)] {
        [
            (
                "loading-80x24",
                ScreenState(
                    title: "https://feeds.example/photos.json", content: .loading, status: status, spinnerFrame: 3),
                TerminalSize(columns: 80, rows: 24)
            ),
            (
                "error-80x24",
                ScreenState(
                    title: "https://feeds.example/photos.json",
                    content: .failed(
                        FeedError(.httpStatus, "https://feeds.example/photos.json answered HTTP 503", statusCode: 503)),
                    status: status), TerminalSize(columns: 80, rows: 24)
            ),
            (
                "list-120x40", listState(size: TerminalSize(columns: 120, rows: 40)),
                TerminalSize(columns: 120, rows: 40)
            ),
            (
                "favourites-80x24",
                listState(
                    size: TerminalSize(columns: 80, rows: 24), favourites: [0, 2],
                    message: "favourites file was corrupt: kept as favourites.json.corrupt, started empty"),
                TerminalSize(columns: 80, rows: 24)
            ),
            (
                "narrow-40x20", listState(size: TerminalSize(columns: 40, rows: 20), favourites: [1]),
                TerminalSize(columns: 40, rows: 20)
            ),
            (
                "wide-160x30", listState(size: TerminalSize(columns: 160, rows: 30)),
                TerminalSize(columns: 160, rows: 30)
            ),
            ("grid-80x24", gridState(size: TerminalSize(columns: 80, rows: 24)), TerminalSize(columns: 80, rows: 24)),
            (
                "fullview-60x16", fullViewState(size: TerminalSize(columns: 60, rows: 16)),
                TerminalSize(columns: 60, rows: 16)
            ),
        ]
    }

    static func gridState(size: TerminalSize) -> ScreenState {
        let layout = ScreenLayout(size: size, mode: .grid)
        let picture = gradient(columns: layout.tileColumns, rows: layout.tileRows, fit: .fill)
        let thumbnails: [ScreenState.Thumbnail] = [
            .image(picture), .loading, .failed("HTTP 404"), .none, .image(picture),
        ]
        let rows = (0..<layout.visibleRowCount).map { index in
            ScreenState.Row(
                index: index, title: "Photo \(index + 1): a kite over the dunes", date: "Mar 4, 2026",
                isFavourite: index == 2, isSelected: index == 1, thumbnail: thumbnails[index % thumbnails.count])
        }
        return ScreenState(
            title: "Test photos", content: .grid(.init(rows: rows, totalCount: 200, favouriteCount: 1)), status: status)
    }

    static func fullViewState(size: TerminalSize) -> ScreenState {
        let box = ScreenLayout(size: size).fullViewBox
        let row = ScreenState.Row(
            index: 6, title: "Photo 7: a kite over the dunes at dusk", date: "Mar 10, 2026",
            summary: "jpeg 4000×3000 · CC-BY-4.0", isFavourite: true, isSelected: true,
            thumbnail: .image(gradient(columns: box.columns, rows: box.rows)))
        return ScreenState(
            title: "Test photos",
            content: .fullView(.init(row: row, totalCount: 200, favouriteCount: 3, details: "JPEG · 4000×3000 px")),
            status: status)
    }

    /// The layout each snapshot is drawn in (the grid's tiles are square for 10×20-pixel cells).
    static func layout(_ entry: (name: String, state: ScreenState, size: TerminalSize)) -> ScreenLayout {
        if case .grid = entry.state.content { return ScreenLayout(size: entry.size, mode: .grid) }
        return ScreenLayout(size: entry.size)
    }

    @Test(arguments: states.map(\.name))
    func frameMatchesRecordedSnapshot(_ name: String) async throws {
        // Given a screen state and a terminal size
        let entry = try #require(Self.states.first { $0.name == name })
        // When it is rendered
        let lines = ScreenRenderer.frame(entry.state, layout: Self.layout(entry)).lines
        // Then the frame is the recorded one
        try await Snapshot.expect(lines, matches: name)
    }

    @Test(arguments: states.map(\.name))
    func everyLineIsExactlyTheTerminalWidth(_ name: String) throws {
        // Given a rendered frame
        let entry = try #require(Self.states.first { $0.name == name })
        let lines = ScreenRenderer.frame(entry.state, layout: Self.layout(entry)).lines
        // Then it has one line per terminal row, each as wide as the terminal once SGR sequences are removed
        #expect(lines.count == entry.size.rows)
        for line in lines {
            let visible = line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            #expect(visible.count == entry.size.columns, "\(visible)")
        }
    }

    @Test func listFrameShowsTitlesDatesPicturesAndStatus() throws {
        // Given the list state on a 120×40 terminal
        let lines = ScreenRenderer.render(
            Self.listState(size: TerminalSize(columns: 120, rows: 40), favourites: [0]),
            size: TerminalSize(columns: 120, rows: 40))
        let text = lines.joined(separator: "\n")
        // Then titles, dates, truecolor symbols, the favourite star, the error mark and the status line are there
        #expect(text.contains("Photo 1: a kite"))
        #expect(text.contains("Mar 5, 2026"))
        #expect(text.contains("\u{1B}[38;2;"))
        #expect(lines[1].contains("★"))
        #expect(text.contains("✗ HTTP 404 · r retries"))
        #expect(lines[39].contains("frame p50 0.3ms p99 2.1ms"))
        #expect(lines[0].contains("2/200 · ★ 1"))
    }

    @Test func tooSmallTerminalSaysSo() {
        let lines = ScreenRenderer.render(
            Self.listState(size: TerminalSize(columns: 20, rows: 5)), size: TerminalSize(columns: 20, rows: 5))
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("Terminal too small"))
    }
}
