import Foundation
import Pinhole
import PinholeGallery
import PinholeServer

/// `pinhole gallery [FEED] [--graphics MODE] [--layout list|grid] [--script STEPS] [--stats-json FILE]`: the
/// terminal gallery (see ``GalleryApp``).
enum GalleryCommand {
    static let options: [OptionSpec] = [
        .value(
            "--graphics", "MODE",
            help: "kitty, iterm, sixel, symbols or halfblocks. Default: the best the terminal supports."),
        .value("--layout", "LAYOUT", help: "list or grid at start (g switches). Default: list."),
        .value("--script", "STEPS", help: "Replay keys, one per frame, e.g. \"ready,down:40,up:40,quit\"."),
        .value("--stats-json", "FILE", help: "Write frame and pipeline figures as JSON to FILE at exit."),
        .value(
            "--log", "FILE",
            help: "Diagnostics (libvips' warnings) go to FILE. Default: $TMPDIR/pinhole-gallery.log on a terminal."),
        .value("--decode-nice", "N", help: "Nice value of decoding threads, 0-19 (0: same as the UI). Default: 0."),
        .value(
            "--server", "URL",
            help: "Ask a 'pinhole serve' at URL for each picture at the exact pixel size drawn. Default: none."),
        .value("--key", "HEX", help: "The server's signing key (or PINHOLE_KEY); none: unsigned URLs."),
        .value("--salt", "HEX", help: "The server's signing salt (or PINHOLE_SALT). Default: empty."),
        .flag("--help", help: "Show this help (also -h)."),
    ]

    static let help = """
        USAGE: pinhole gallery [FEED] [--graphics MODE] [--layout list|grid] [--script STEPS] [--stats-json FILE]
                               [--decode-nice N] [--log FILE] [--server URL [--key HEX --salt HEX]]

        Shows a JSON Feed (https://jsonfeed.org/version/1.1) as a scrolling list or a grid of thumbnails, and
        one photo at the terminal's full size. Pictures are drawn by libchafa with the kitty graphics protocol,
        iTerm2 inline images or sixel when the terminal supports them (detected from the environment and a
        terminal query), else with Unicode symbols in the terminal's colours (inside tmux or screen: symbols).
        FEED is a path or an http(s) URL. Without FEED a demo feed of 200 items over the photo corpus
        ($PINHOLE_CORPUS, else ~/.cache/pinhole/corpus) is served over loopback HTTP with 80-250 ms latency.

        KEYS: up/down or k/j, left/right or h/l (grid), PgUp/PgDn, Home/End, Enter full view, Esc back,
        left/right previous/next (full view), g list/grid, f favourite, r retry, q quit.
        Favourites are kept in ${XDG_DATA_HOME:-~/.local/share}/pinhole/favourites.json.
        Dates use the locale of LC_ALL, LC_TIME or LANG.

        SCRIPT STEPS (comma-separated): up down left right pgup pgdn home end enter esc g f r quit, each with an
          optional :N count (and /MS interval);
          wait:MS pauses; ready[:MS] waits until the feed and the visible thumbnails are shown.

        OPTIONS:
        \(options.map { "  \($0.synopsis.padding(toLength: 19, withPad: " ", startingAt: 0)) \($0.help)" }
            .joined(separator: "\n"))
        """

    /// Parses `arguments` and runs the gallery; returns the exit status.
    static func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentReader(options: options).read(arguments)
        if parsed.has("--help") {
            print(help)
            return 0
        }
        guard parsed.positionals.count <= 1 else {
            throw UsageError("gallery takes at most one FEED, not \(parsed.positionals.count)")
        }
        var script: KeyScript?
        if let text = parsed.string("--script") {
            do {
                script = try KeyScript.parse(text)
            } catch {
                throw UsageError("--script: \(error.message)")
            }
        }
        var graphics: GraphicsMode?
        if let text = parsed.string("--graphics") {
            guard let mode = GraphicsMode(argument: text) else {
                throw UsageError("--graphics: '\(text)' is not one of kitty, iterm, sixel, symbols, halfblocks")
            }
            graphics = mode
        }
        var layout = LayoutMode.list
        if let text = parsed.string("--layout") {
            guard let mode = LayoutMode(rawValue: text.lowercased()) else {
                throw UsageError("--layout: '\(text)' is not list or grid")
            }
            layout = mode
        }
        let statsJSON = parsed.string("--stats-json").map { URL(fileURLWithPath: $0) }
        let log = parsed.string("--log").map { URL(fileURLWithPath: $0) }
        if let statsJSON, let log, statsJSON.standardizedFileURL.path == log.standardizedFileURL.path {
            // The log is appended to while the gallery runs, and the figures replace the file at exit.
            throw UsageError("--log and --stats-json need two different files, not both \(log.path)")
        }
        let decodeNice = try parsed.integer("--decode-nice", default: 0, in: 0...19)
        var demo: DemoFeed?
        let feed: String
        if let argument = parsed.positionals.first {
            feed = argument
        } else {
            do {
                let started = try await DemoFeed.start(corpus: DemoFeed.defaultCorpusDirectory())
                demo = started
                feed = started.feedURL.absoluteString
            } catch {
                FileHandle.standardError.write(Data("pinhole: error: cannot start the demo feed: \(error)\n".utf8))
                return 1
            }
        }
        var options = GalleryApp.Options(
            feed: feed, script: script, statsJSON: statsJSON, decodeNice: decodeNice, graphics: graphics,
            layout: layout)
        options.log = log
        if let builder = try serverURLBuilder(parsed, environment: options.environment) {
            options.thumbnailURL = { source, box in builder.url(source: source, thumbnail: box) }
        }
        let status = await GalleryApp.run(options)
        if let demo { _ = try? await WorkerThreadPool.io.run { demo.stop() } }
        return status
    }

    /// The signed-URL builder of `--server` (with `--key`/`--salt` or `PINHOLE_KEY`/`PINHOLE_SALT`), or `nil`.
    ///
    /// - Throws: ``UsageError`` for a server that is not an http(s) URL, or a key or salt that is not hexadecimal.
    static func serverURLBuilder(
        _ parsed: ParsedArguments, environment: [String: String]
    ) throws(UsageError) -> ProcessingURLBuilder? {
        guard let text = parsed.string("--server") else { return nil }
        guard let base = URL(string: text), ["http", "https"].contains(base.scheme?.lowercased() ?? ""),
            base.host != nil
        else { throw UsageError("--server needs an http(s) URL, not '\(text)'") }
        guard let key = parsed.string("--key") ?? environment["PINHOLE_KEY"] else {
            return ProcessingURLBuilder(base: base, signer: nil)
        }
        do {
            let signer = try URLSigner(
                keyHex: key, saltHex: parsed.string("--salt") ?? environment["PINHOLE_SALT"] ?? "")
            return ProcessingURLBuilder(base: base, signer: signer)
        } catch {
            throw UsageError("--key/--salt: \(error)")
        }
    }
}
