import Foundation
import Pinhole
import PinholeGallery
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

/// Runs the built `pinhole gallery` in a real terminal (tmux), against a feed served over loopback HTTP.
@Suite(.timeLimit(scaledMinutes: 3))
struct GalleryEndToEndTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cases/inputs")

    /// A feed of three real images and one HTML page posing as a JPEG (its row shows the error mark).
    static func serveFeed() async throws -> PinholeTestServer {
        let server = try PinholeTestServer()
        let files = ["baseline.jpg", "iccp-p3-green.png", "interlaced-adam7.png", "html-200-as-jpeg.jpg"]
        let titles = ["Harbour at dawn", "Green field", "Interlaced tiles", "Broken picture"]
        let directory = fixtures
        let bodies = try await WorkerThreadPool.io.run {
            try files.map { try Data(contentsOf: directory.appendingPathComponent($0)) }
        }
        var items: [[String: Any]] = []
        for (index, file) in files.enumerated() {
            server.route("/img/\(file)", .image(bodies[index], latency: .milliseconds(80)))
            items.append([
                "id": "e2e-\(index + 1)", "title": titles[index], "image": server.url("/img/\(file)").absoluteString,
                "date_published": "2026-03-0\(4 + index)T10:20:30Z",
            ])
        }
        let feed: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1", "title": "End to end", "items": items,
        ]
        server.route(
            "/feed.json", Route(body: try JSONSerialization.data(withJSONObject: feed), latency: .milliseconds(100)))
        return server
    }

    /// `q` quits with 0; Ctrl-C (SIGINT, the terminal keeps ISIG) with 130; both restore the terminal.
    @Test(arguments: [("q", "0"), ("C-c", "130")])
    func showsTheFeedInARealTerminalAndRestoresItOnQuit(quitKey: String, expectedStatus: String) async throws {
        // Given a feed over loopback HTTP and the built binary in a 120×40 tmux pane
        let server = try await Self.serveFeed()
        let scratchDirectory = try TemporaryDirectory(prefix: "pinhole-e2e")
        defer { scratchDirectory.remove() }
        let scratch = scratchDirectory.url
        let tmux = Tmux()
        let binary = Tmux.binary
        #expect(
            FileManager.default.isExecutableFile(atPath: binary), "build the CLI first: swift build --product pinhole")
        let command =
            "env LANG=en_US.UTF-8 LC_ALL= LC_TIME= XDG_DATA_HOME='\(scratch.path)' '\(binary)' gallery "
            + "'\(server.url("/feed.json").absoluteString)' --stats-json '\(scratch.path)/stats.json'; "
            + "echo $? > '\(scratch.path)/exit'; stty -a > '\(scratch.path)/stty'; sleep 120"
        try await tmux.run(["new-session", "-d", "-s", "gallery", "-x", "120", "-y", "40", command])
        do {
            try await checkGallery(in: tmux, scratch: scratch, quitKey: quitKey, expectedStatus: expectedStatus)
        } catch {
            await tmux.killServer()
            throw error
        }
        await tmux.killServer()
        await server.shutDown()
    }

    private func checkGallery(in tmux: Tmux, scratch: URL, quitKey: String, expectedStatus: String) async throws {

        // When the feed and its thumbnails have loaded
        let pane = try await tmux.waitForPane(escapes: true) { pane in
            pane.contains("Interlaced tiles") && pane.contains("✗") && pane.components(separatedBy: ";2;").count > 100
                && pane.contains("shown 3")
        }
        // Then titles, locale dates, libchafa's symbols in 24-bit colour (tmux: no image protocol), the error mark
        // and the status line are on screen
        #expect(pane.contains("Harbour at dawn") && pane.contains("Green field") && pane.contains("Broken picture"))
        #expect(pane.contains("Mar 4, 2026") && pane.contains("Mar 7, 2026"))
        #expect(pane.contains("38;2;") && pane.contains("symbols · frame"), "symbols in 24-bit colour")
        #expect(pane.contains("✗ not an image · r retries"))
        #expect(pane.contains("frame p50") && pane.contains("hitches") && pane.contains("threads"))

        // When the first row is marked as a favourite and q (or Ctrl-C) is pressed
        try await tmux.run(["send-keys", "-t", "gallery", "f"])
        let marked = try await tmux.waitForPane { $0.contains("1/4 · ★ 1") }
        #expect(marked.contains("1/4 · ★ 1"))

        // When the terminal shrinks to 60×20 (SIGWINCH)
        try await tmux.run(["resize-window", "-t", "gallery", "-x", "60", "-y", "20"])
        // (Titles start after the bar, the favourite mark, a space, the thumbnail and two spaces: column 17 at 60.)
        // (Captured with escapes, so that colours can be read; columns are counted in the printed characters.)
        func titleColumns(_ pane: String) -> [Int] {
            PaneCells(capture: pane).lines.map { String($0.map(\.character)) }.compactMap { line in
                ["Harbour at dawn", "Green field", "Interlaced tiles", "Broken picture"].lazy.compactMap {
                    line.range(of: $0).map { line.distance(from: line.startIndex, to: $0.lowerBound) }
                }.first
            }
        }
        // (The status line is cut to 60 columns there, so its "shown" count is not on screen: the pictures are
        // looked for instead, by the truecolor cells in each row's thumbnail box, with no row still loading.)
        let narrowLayout = ScreenLayout(size: TerminalSize(columns: 60, rows: 20))
        func drawnThumbnails(_ pane: String) -> Int {
            let cells = PaneCells(capture: pane)
            return (0..<3).filter { row in
                let top = narrowLayout.listTop + row * narrowLayout.rowStride
                return cells.colouredShare(
                    columns: 3..<(3 + narrowLayout.thumbnailColumns), rows: top..<(top + narrowLayout.rowHeight)) > 0.3
            }.count
        }
        let narrow = try await tmux.waitForPane(escapes: true) { pane in
            titleColumns(pane) == [17, 17, 17] && !pane.contains("loading…") && drawnThumbnails(pane) == 3
        }
        // Then the layout follows: three rows of 12×4-cell thumbnails drawn again at the new size, lines cut to 60
        // columns
        let narrowLines = PaneCells(capture: narrow).lines.map { String($0.map(\.character)) }
        #expect(titleColumns(narrow) == [17, 17, 17], "\(narrow)")
        #expect(drawnThumbnails(narrow) == 3 && !narrow.contains("loading…"), "\(narrow)")
        #expect(narrowLines.first?.contains("1/4 · ★ 1") == true)
        #expect(narrowLines.allSatisfy { $0.count <= 60 })
        try await tmux.run(["send-keys", "-t", "gallery", quitKey])

        // Then the program exits 0 (130 for Ctrl-C), the terminal is back in canonical mode with echo, the alternate
        // screen is gone, and the favourite and the stats were written
        let exitFile = scratch.appendingPathComponent("exit")
        let sttyPath = scratch.path + "/stty"
        // (tmux parses the pane's output on its own schedule: wait for the screen switch as well as the file.)
        let after = try await tmux.waitForPane { pane in
            ((try? String(contentsOfFile: sttyPath, encoding: .utf8)) ?? "").contains("speed")
                && !pane.contains("Harbour at dawn")
        }
        let exitStatus = try await WorkerThreadPool.io.run { try? String(contentsOf: exitFile, encoding: .utf8) }
        #expect(exitStatus?.trimmingCharacters(in: .whitespacesAndNewlines) == expectedStatus)
        let stty = try await WorkerThreadPool.io.run {
            (try? String(contentsOfFile: scratch.path + "/stty", encoding: .utf8)) ?? ""
        }
        let flags = Set(stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        #expect(flags.contains("icanon") && flags.contains("echo"), "\(stty)")
        #expect(!flags.contains("-icanon") && !flags.contains("-echo"))
        #expect(!after.contains("Harbour at dawn"), "the gallery's screen is gone (alternate screen left)")
        let favourites = try await WorkerThreadPool.io.run {
            (try? String(contentsOfFile: scratch.path + "/pinhole/favourites.json", encoding: .utf8)) ?? ""
        }
        #expect(favourites.contains("\"e2e-1\""))
        let stats = try await WorkerThreadPool.io.run {
            try? Data(contentsOf: scratch.appendingPathComponent("stats.json"))
        }
        let figures = try JSONSerialization.jsonObject(with: try #require(stats)) as? [String: Any]
        for key in [
            "frameP50Ms", "frameP99Ms", "hitches", "hangs", "peakThreads", "imagesShown", "memoryHits", "mode", "views",
        ] {
            #expect(figures?[key] != nil, "stats lack \(key)")
        }
        #expect(figures?["mode"] as? String == "symbols")
        let listFigures = (figures?["views"] as? [String: Any])?["list"] as? [String: Any]
        #expect((listFigures?["frames"] as? Int ?? 0) > 0 && listFigures?["frameP99Ms"] != nil)
        #expect(figures?["imagesShown"] as? Int == 6, "3 thumbnails at 120 columns, the same 3 again at 60")
    }

    @Test func scriptedRunWithoutATerminalWritesStats() async throws {
        // Given the binary run with a script, stdin not a terminal, against the loopback feed
        let server = try await Self.serveFeed()
        let scratchDirectory = try TemporaryDirectory(prefix: "pinhole-e2e")
        defer { scratchDirectory.remove() }
        let scratch = scratchDirectory.url
        let arguments = [
            Tmux.binary, "gallery", server.url("/feed.json").absoluteString,
            "--script", "ready,down:3,f,up,quit", "--stats-json", scratch.path + "/stats.json",
        ]
        var environment = ["XDG_DATA_HOME": scratch.path, "COLUMNS": "80", "LINES": "24", "LANG": "de_DE.UTF-8"]
        // Sanitizer settings (suppression files) reach the child too, as they do the tmux-started one.
        for (key, value) in ProcessInfo.processInfo.environment where key.hasSuffix("SAN_OPTIONS") {
            environment[key] = value
        }
        // When it runs to the end of the script
        let status = try await Spawn.run(arguments, environment: environment)
        // Then it exits 0 with the favourite saved and the figures written
        #expect(status == 0)
        let favourites = try await WorkerThreadPool.io.run {
            (try? String(contentsOfFile: scratch.path + "/pinhole/favourites.json", encoding: .utf8)) ?? ""
        }
        #expect(favourites.contains("\"e2e-4\""))
        let stats = try await WorkerThreadPool.io.run {
            try? Data(contentsOf: scratch.appendingPathComponent("stats.json"))
        }
        let figures = try JSONSerialization.jsonObject(with: try #require(stats)) as? [String: Any]
        #expect(figures?["feedItems"] as? Int == 4)
        #expect((figures?["frames"] as? Int ?? 0) > 0)
        await server.shutDown()
    }
}
