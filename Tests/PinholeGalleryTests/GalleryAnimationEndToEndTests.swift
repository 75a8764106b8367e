import Foundation
import Pinhole
import PinholeGallery
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

/// The built `pinhole gallery` in a real terminal (tmux) plays an animated GIF in its row and leaves a still row
/// alone; the feed is served over loopback HTTP.
@Suite(.timeLimit(scaledMinutes: 3))
struct GalleryAnimationEndToEndTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../Fixtures"
    )
    .standardized

    /// Item 1: `sixty.gif` (60 frames of 40 ms, looping); item 2: a JPEG.
    static func serveFeed() async throws -> PinholeTestServer {
        let directory = fixtures
        let (gif, jpeg) = try await WorkerThreadPool.io.run {
            (
                try Data(contentsOf: directory.appendingPathComponent("animation/sixty.gif")),
                try Data(contentsOf: directory.appendingPathComponent("cases/inputs/baseline.jpg"))
            )
        }
        let server = try PinholeTestServer()
        server.route("/img/bar.gif", .image(gif, contentType: "image/gif", latency: .milliseconds(20)))
        server.route("/img/harbour.jpg", .image(jpeg, latency: .milliseconds(20)))
        let items: [[String: Any]] = [
            ["id": "a", "title": "Moving bar", "image": server.url("/img/bar.gif").absoluteString],
            ["id": "b", "title": "Harbour", "image": server.url("/img/harbour.jpg").absoluteString],
        ]
        let feed: [String: Any] = ["version": "https://jsonfeed.org/version/1.1", "title": "Animation", "items": items]
        server.route("/feed.json", Route(body: try JSONSerialization.data(withJSONObject: feed)))
        return server
    }

    @Test func animatedRowsPictureChangesOverTimeAndAStillRowsDoesNot() async throws {
        // Given the gallery in a 120×40 tmux pane on a feed of an animated GIF and a JPEG
        let server = try await Self.serveFeed()
        let scratchDirectory = try TemporaryDirectory(prefix: "pinhole-anim-e2e")
        defer { scratchDirectory.remove() }
        let scratch = scratchDirectory.url
        let tmux = Tmux()
        let command =
            "env LANG=C.UTF-8 XDG_DATA_HOME='\(scratch.path)' '\(Tmux.binary)' gallery "
            + "'\(server.url("/feed.json").absoluteString)' --stats-json '\(scratch.path)/stats.json'; sleep 120"
        try await tmux.run(["new-session", "-d", "-s", "gallery", "-x", "120", "-y", "40", command])
        do {
            try await check(tmux, scratch: scratch)
        } catch {
            await tmux.killServer()
            throw error
        }
        await tmux.killServer()
        await server.shutDown()
    }

    private func check(_ tmux: Tmux, scratch: URL) async throws {
        // When both thumbnails are on screen
        _ = try await tmux.waitForPane(escapes: true) { $0.contains("shown 2") && $0.contains("Harbour") }
        let layout = ScreenLayout(size: TerminalSize(columns: 120, rows: 40))
        let animatedRows = layout.listTop..<(layout.listTop + layout.rowHeight)
        let stillRows = (animatedRows.lowerBound + layout.rowStride)..<(animatedRows.upperBound + layout.rowStride)
        // And the pane is captured every 100 ms for up to 20 s (× load factor), until row 1 was seen in 4 pictures
        var animated: Set<String> = []
        var still: Set<String> = []
        let deadline = ContinuousClock.now + LoadFactor.scaled(.seconds(20))
        while ContinuousClock.now < deadline && animated.count < 4 {
            let lines = try await tmux.capture(escapes: true).components(separatedBy: "\n")
            try #require(lines.count >= stillRows.upperBound)
            animated.insert(lines[animatedRows].joined(separator: "\n"))
            still.insert(lines[stillRows].joined(separator: "\n"))
            try await Task.sleep(for: .milliseconds(100))
        }
        // Then the animated row showed at least 4 different pictures, and the still row one, the whole time
        #expect(animated.count >= 4, "the animated row showed \(animated.count) pictures")
        #expect(still.count == 1, "the still row showed \(still.count) pictures")
        // And at exit the stats count the frames shown, with the main-actor time of each tick
        try await tmux.run(["send-keys", "-t", "gallery", "q"])
        let statsURL = scratch.appendingPathComponent("stats.json")
        let stats = try await waitForFile(statsURL)
        let figures = try JSONDecoder().decode(GalleryStats.self, from: stats)
        let animation = try #require(figures.animation)
        #expect(animation.framesShown >= 3 && animation.framesDecoded >= 8)
        #expect(animation.tickMaxMs > 0 && animation.peakFrameBytes > 0)
    }

    private func waitForFile(_ url: URL) async throws -> Data {
        let deadline = ContinuousClock.now + LoadFactor.scaled(.seconds(30))
        while ContinuousClock.now < deadline {
            if let data = try await WorkerThreadPool.io.run({ try? Data(contentsOf: url) }), !data.isEmpty {
                return data
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("no stats file at \(url.path)")
        throw CancellationError()
    }
}
