import Foundation
import Glibc
import Pinhole
import PinholeCurl
import PinholeVips

extension GalleryApp {
    /// Runs the gallery until `q`, the end of a script that quits, `SIGINT` or `SIGTERM`; returns the exit status
    /// (0 on `q`, 130/143 on the signals, 2 when the stats file cannot be written).
    ///
    /// Raw input mode is used only when standard input is a terminal, and the alternate screen only when standard
    /// output is one; otherwise frames are still rendered and written (scripted runs, benchmarks). While the UI
    /// runs, standard error goes to `$TMPDIR/pinhole-gallery.log` when it is the terminal, so no message can
    /// scribble over the screen.
    public static func run(_ options: Options) async -> Int32 {
        let started = ContinuousClock.now
        let feedURL = FeedLoaders.url(forArgument: options.feed)
        let inputIsTerminal = isatty(STDIN_FILENO) == 1
        let outputIsTerminal = isatty(STDOUT_FILENO) == 1
        let size = TerminalSession.size() ?? fallbackSize(options.environment)
        let savedError =
            options.log != nil || (outputIsTerminal && isatty(STDERR_FILENO) == 1)
            ? redirectStandardError(to: options.log?.path ?? defaultLogPath) : nil
        if let log = options.log, savedError == nil {
            FileHandle.standardError.write(Data("pinhole: error: cannot open the log \(log.path)\n".utf8))
            return 2
        }
        TerminalSession.enter(rawInput: inputIsTerminal, alternateScreen: outputIsTerminal)
        let renderer = await renderer(options, size: size, asksTerminal: inputIsTerminal && outputIsTerminal)
        let pipeline = ImagePipeline(
            configuration: ImagePipeline.Configuration(
                decoder: VipsDecoder(), dataLoader: SchemeRoutingDataLoader(http: HTTPDataLoader())))
        let model = FeedScreenModel(
            feedURL: feedURL, loader: FeedLoaders.live(), pipeline: pipeline,
            favouritesStore: FavouritesStore(fileURL: FavouritesStore.defaultFileURL(environment: options.environment)),
            locale: GalleryLocale.fromEnvironment(options.environment), size: size, layoutMode: options.layout,
            renderer: renderer)
        model.thumbnailURL = options.thumbnailURL
        let app = GalleryApp(
            model: model, script: options.script, size: size, tracksTerminalSize: outputIsTerminal,
            decodeNice: options.decodeNice)
        Task {
            await model.loadFavourites()
            await model.load()
        }
        var status = await app.run(readsKeys: inputIsTerminal)
        let writer = app.writer
        _ = try? await WorkerThreadPool.io.run { writer.waitUntilIdle() }
        TerminalSession.restore()
        // Warnings since the last drain (the frame loop drains every 30 frames) go to the log before it closes.
        let leftovers = Vips.drainWarnings()
        if !leftovers.isEmpty { writeDiagnostics(leftovers.map { "libvips: \($0)" }) }
        await withCheckedContinuation { done in diagnosticsQueue.async { done.resume() } }
        if let savedError {
            _ = dup2(savedError, STDERR_FILENO)
            _ = close(savedError)
        }
        await model.flushFavourites()
        if let statsURL = options.statsJSON {
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            do {
                let data = try app.summary(seconds: seconds, exitStatus: status).json()
                // Atomically (a temporary file, then a rename): a reader that waits for the file never sees it half
                // written (the grid test once read it empty).
                try await WorkerThreadPool.io.run { try data.write(to: statsURL, options: .atomic) }
            } catch {
                FileHandle.standardError.write(Data("pinhole: error: cannot write \(statsURL.path): \(error)\n".utf8))
                if status == 0 { status = 2 }
            }
        }
        return status
    }

    /// The renderer for this terminal: the mode from `--graphics` or detected (environment, then the terminal's
    /// replies when `asksTerminal`), libchafa's colour depth for the terminal, and the cell size it reports
    /// (else ``CellPixelSize/assumed``).
    private static func renderer(_ options: Options, size: TerminalSize, asksTerminal: Bool) async -> ChafaRenderer {
        let replies = asksTerminal ? await TerminalProbe.query() : nil
        let mode = options.graphics ?? GraphicsDetection.mode(environment: options.environment, replies: replies)
        let cell = GraphicsDetection.cellPixelSize(
            replies: replies, windowPixels: asksTerminal ? TerminalSession.windowPixels() : nil, size: size)
        return ChafaRenderer(
            mode: mode, colorDepth: GraphicsDetection.capabilities(environment: options.environment).colorDepth,
            cellPixelSize: cell ?? .assumed, environment: options.environment)
    }

    /// `COLUMNS` × `LINES` from the environment, else 120 × 40.
    static func fallbackSize(_ environment: [String: String]) -> TerminalSize {
        TerminalSize(
            columns: environment["COLUMNS"].flatMap { Int($0) } ?? 120,
            rows: environment["LINES"].flatMap { Int($0) } ?? 40)
    }

    /// `$TMPDIR/pinhole-gallery.log`.
    static var defaultLogPath: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-gallery.log").path
    }

    /// Serialises writes to the diagnostics log, off the main actor.
    static let diagnosticsQueue = DispatchQueue(label: "pinhole.gallery.diagnostics")

    /// Writes `lines` to standard error (the diagnostics log while the gallery runs), each with its wall-clock time,
    /// on a queue of its own: the frame loop never waits for the file.
    static func writeDiagnostics(_ lines: [String]) {
        let stamp = Date().formatted(.iso8601)
        let text = lines.map { "\(stamp) \($0)\n" }.joined()
        diagnosticsQueue.async { FileHandle.standardError.write(Data(text.utf8)) }
    }

    /// Points standard error at the log file at `path`; returns a duplicate of the old one, or `nil` if that
    /// failed.
    private static func redirectStandardError(to path: String) -> Int32? {
        let log = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard log >= 0 else { return nil }
        let saved = dup(STDERR_FILENO)
        guard saved >= 0 else {
            close(log)
            return nil
        }
        _ = dup2(log, STDERR_FILENO)
        _ = close(log)
        return saved
    }
}
