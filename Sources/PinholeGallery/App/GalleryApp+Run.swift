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
        var savedError: Int32?
        if options.log != nil || (outputIsTerminal && isatty(STDERR_FILENO) == 1) {
            switch redirectStandardError(to: options.log?.path ?? defaultLogPath) {
            case .success(let saved): savedError = saved
            case .failure(let reason) where options.log != nil:
                let path = options.log?.path ?? ""
                _ = writeAll(STDERR_FILENO, "pinhole: error: cannot open the log \(path): \(reason.message)\n")
                return 2
            case .failure: break  // the default log is a convenience: without it, standard error stays as it is
            }
        }
        TerminalSession.enter(rawInput: inputIsTerminal, alternateScreen: outputIsTerminal)
        let renderer = await renderer(options, size: size, asksTerminal: inputIsTerminal && outputIsTerminal)
        var configuration = ImagePipeline.Configuration(
            decoder: VipsDecoder(), dataLoader: SchemeRoutingDataLoader(http: HTTPDataLoader()))
        // The full view's line of details says where the photo's time went.
        configuration.collectsTaskMetrics = true
        let pipeline = ImagePipeline(configuration: configuration)
        let model = FeedScreenModel(
            feedURL: feedURL, loader: FeedLoaders.live(), pipeline: pipeline,
            favouritesStore: FavouritesStore(fileURL: FavouritesStore.defaultFileURL(environment: options.environment)),
            locale: GalleryLocale.fromEnvironment(options.environment), size: size, layoutMode: options.layout,
            renderer: renderer)
        model.thumbnailURL = options.thumbnailURL
        model.onLog = { lines in writeDiagnostics(lines) }
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
        // A frame deferred while the terminal was busy (under load: the screen `ready` waited for) is drawn last.
        app.drawPendingFrame()
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

    /// Writes `lines` to standard error (the diagnostics log while the gallery runs), each
    /// with its wall-clock time, on a queue of its own: the frame loop never waits for the file. A write that fails
    /// (a full disk, a closed pipe) drops the lines: diagnostics never stop the gallery.
    static func writeDiagnostics(_ lines: [String]) {
        let stamp = Date().formatted(.iso8601)
        let text = lines.map { "\(stamp) \($0)\n" }.joined()
        diagnosticsQueue.async { _ = writeAll(STDERR_FILENO, text) }
    }

    /// Writes all of `text` to `descriptor` with `write(2)`; `false` at the first failure, where
    /// `FileHandle.write` would trap (a log given with `--log` is always a regular file, so no pipe is written).
    nonisolated static func writeAll(_ descriptor: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            bytes = bytes.dropFirst(written)
        }
        return true
    }

    /// Why a log could not be opened: `strerror`'s words, or what the file is instead of a regular file.
    struct LogOpenFailure: Error {
        var message: String
    }

    /// Points standard error at the log file at `path`, appended to (never truncated), and returns a duplicate of
    /// the old one. Only a regular file is taken, never through a symbolic link (`O_NOFOLLOW`: a link planted at
    /// `$TMPDIR/pinhole-gallery.log` does not redirect the writes), and a FIFO is not waited for (`O_NONBLOCK`).
    private static func redirectStandardError(to path: String) -> Result<Int32, LogOpenFailure> {
        guard !path.isEmpty else { return .failure(LogOpenFailure(message: "no path given")) }
        let log = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard log >= 0 else { return .failure(LogOpenFailure(message: String(cString: strerror(errno)))) }
        var status = stat()
        guard fstat(log, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(log)
            return .failure(LogOpenFailure(message: "not a regular file"))
        }
        let saved = dup(STDERR_FILENO)
        guard saved >= 0 else {
            close(log)
            return .failure(LogOpenFailure(message: String(cString: strerror(errno))))
        }
        _ = dup2(log, STDERR_FILENO)
        _ = close(log)
        return .success(saved)
    }
}
