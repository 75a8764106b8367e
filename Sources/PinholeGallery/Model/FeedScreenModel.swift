public import Foundation
public import Observation
public import Pinhole

/// The feed screen's state and behaviour, independent of any terminal: loading the feed, the selection and
/// scrolling in the list or the grid, favourites, one ``ImageSlot`` per visible item, and the full view of one
/// photo.
///
/// - Loading: the feed's bytes come from the injected ``FeedLoader``; they are decoded (and dates formatted)
///   on ``WorkerThreadPool/cpu``; the rows appear in one step, with exactly one redraw request.
/// - Redraws: every change calls ``invalidate()``, which counts in ``redrawCount``, sets ``needsDisplay`` and
///   calls ``onRedraw``. Changes made together (a load, a scroll step) ask for one redraw.
/// - Favourites: read once by ``loadFavourites()``, saved after every ``toggleFavourite()`` (in order, off the
///   main actor) through the ``FavouritesStore``.
/// - Thumbnails: see `FeedScreenModel+Thumbnails.swift`; the full view: `FeedScreenModel+FullView.swift`.
///
/// Isolation: the main actor. Nothing here blocks: every file, network and CPU-heavy step runs elsewhere.
@MainActor
@Observable
public final class FeedScreenModel {
    /// Where the feed is.
    public enum Phase: Sendable, Equatable {
        /// Not asked yet.
        case idle
        /// Fetching and decoding: show a spinner.
        case loading
        /// ``FeedScreenModel/rows`` holds the feed (possibly empty).
        case loaded
        /// The feed could not be shown; ``FeedScreenModel/retry()`` tries again.
        case failed(FeedError)
    }

    /// Where the feed is.
    public private(set) var phase: Phase = .idle
    /// The feed's title, once loaded.
    public private(set) var feedTitle = ""
    /// The feed's rows, once loaded; empty otherwise.
    public private(set) var rows: [FeedRow] = []
    /// The selected row (0-based).
    public internal(set) var selectedIndex = 0
    /// The first row on screen (0-based).
    public internal(set) var firstVisibleIndex = 0
    /// Ids of the favourite items.
    public private(set) var favourites: Set<String> = []
    /// The latest diagnostic for the message line (corrupt favourites, a failed save, pipeline notes); or `nil`.
    public private(set) var diagnostic: String?
    /// The geometry of the screen (its size, list or grid, cell size).
    public internal(set) var layout: ScreenLayout
    /// How pictures are drawn (graphics mode, colours, cell size).
    public internal(set) var renderer: ChafaRenderer
    /// The item shown in the full view, or `nil` in the list or grid.
    public var fullViewIndex: Int? { fullView?.index }

    /// Redraw requests so far (see ``invalidate()``).
    @ObservationIgnored public private(set) var redrawCount = 0
    /// `true` from a redraw request until ``didDisplay()``.
    @ObservationIgnored public private(set) var needsDisplay = true
    /// Times the feed loader was called.
    @ObservationIgnored public private(set) var feedLoadCount = 0
    /// Thumbnails that reached the screen (each binding of a row counts once).
    @ObservationIgnored public internal(set) var imagesShown = 0
    /// Photos that reached the screen in the full view (each opening counts once).
    @ObservationIgnored public internal(set) var fullViewsShown = 0
    /// Rows bound straight from the memory cache (``ImageSlot`` looks there synchronously, so these hits do not
    /// reach ``ImagePipeline/metrics``).
    @ObservationIgnored public internal(set) var memoryCacheHits = 0
    /// Lines for the diagnostics log (the feed's ignored `_pinhole` extensions), called on the main actor when a
    /// feed is shown; `nil` by default (the app writes them to `--log`).
    @ObservationIgnored public var onLog: (@MainActor ([String]) -> Void)?
    /// The diagnostics of the feed shown now (see ``JSONFeed/diagnostics``); empty before it loads.
    @ObservationIgnored public private(set) var feedDiagnostics: [String] = []
    /// Called on the main actor after every redraw request; `nil` by default.
    @ObservationIgnored public var onRedraw: (@MainActor () -> Void)?

    /// The feed's address.
    public let feedURL: URL
    /// The pipeline that loads thumbnails.
    public let pipeline: ImagePipeline
    /// Where each image is asked for, given its URL and the box it is drawn in: a thumbnail server's URL for that
    /// exact box (`pinhole gallery --server`), or `nil` to load the URL itself. `nil` by default.
    @ObservationIgnored public var thumbnailURL: (@Sendable (_ source: URL, _ box: ThumbnailOptions) -> URL?)?
    let loader: FeedLoader
    let prefetcher: ImagePrefetcher
    let fullViewPrefetcher: ImagePrefetcher
    let favouritesStore: FavouritesStore?
    let dateStyle: Date.FormatStyle
    let pictureCache: PictureCache
    /// Drawn pictures of animation frames past the first, apart from ``pictureCache`` so that a playing animation
    /// never evicts the stills of the list.
    let framePictures = PictureCache(costLimit: 16_000_000)
    /// Plays the animations of every slot (list, grid and full view) from one clock: ``GalleryApp`` ticks it
    /// every frame.
    @ObservationIgnored public let animationTicker = AnimationTicker()
    /// Whether GIF and animated WebP items play (their requests are ``ImageRequest/Options/animated``); `true` by
    /// default. Set it before ``load()``.
    @ObservationIgnored public var playsAnimations = true

    struct RowBinding {
        let slot: ImageSlot
        let itemID: String
        var shown = false
        /// The animation frame whose picture is on screen (0: the first frame, or a still).
        var drawnFrame = 0
    }

    struct FullViewBinding {
        let index: Int
        let slot: ImageSlot
        var shown = false
        var drawnFrame = 0
    }

    @ObservationIgnored var bindings: [Int: RowBinding] = [:]
    @ObservationIgnored var prefetching: [ImageRequest] = []
    @ObservationIgnored var pendingConversions: Set<PictureCache.Key> = []
    @ObservationIgnored var fullView: FullViewBinding?
    @ObservationIgnored var fullViewPrefetching: [ImageRequest] = []
    @ObservationIgnored var scrollDirection = 1
    @ObservationIgnored private var batchDepth = 0
    @ObservationIgnored private var batchedRedraw = false
    @ObservationIgnored private var loadGeneration: UInt64 = 0
    @ObservationIgnored private var saveTask: Task<Void, Never>?

    /// - Parameters:
    ///   - feedURL: the feed's address (`http`, `https` or `file`), passed to `loader`.
    ///   - loader: fetches the feed's bytes (``FeedLoaders/live(timeout:)`` in the app, a closure in tests).
    ///   - pipeline: loads the thumbnails.
    ///   - favouritesStore: where favourites persist; `nil` keeps them in memory only.
    ///   - locale: the locale of dates (``GalleryLocale/fromEnvironment(_:)`` in the app).
    ///   - timeZone: the time zone of dates; the current one by default.
    ///   - size: the terminal size (rows per screen, thumbnail size).
    ///   - layoutMode: list (default) or grid.
    ///   - renderer: how pictures are drawn; symbols in truecolor with 10×20-pixel cells by default.
    ///   - pictureCache: drawn pictures; a new 64 MB cache by default.
    public init(
        feedURL: URL,
        loader: @escaping FeedLoader,
        pipeline: ImagePipeline,
        favouritesStore: FavouritesStore?,
        locale: Locale,
        timeZone: TimeZone = .current,
        size: TerminalSize,
        layoutMode: LayoutMode = .list,
        renderer: ChafaRenderer = ChafaRenderer(mode: .symbols),
        pictureCache: PictureCache = PictureCache()
    ) {
        self.feedURL = feedURL
        self.loader = loader
        self.pipeline = pipeline
        self.prefetcher = ImagePrefetcher(pipeline: pipeline, priority: .low)
        self.fullViewPrefetcher = ImagePrefetcher(pipeline: pipeline, priority: .low)
        self.favouritesStore = favouritesStore
        self.dateStyle = GalleryLocale.dateStyle(locale: locale, timeZone: timeZone)
        self.pictureCache = pictureCache
        self.renderer = renderer
        self.layout = ScreenLayout(size: size, mode: layoutMode, cellPixelSize: renderer.cellPixelSize)
    }

    // MARK: Redraws

    /// Asks for a redraw: counts it, sets ``needsDisplay`` and calls ``onRedraw`` (once per batch of changes).
    public func invalidate() {
        guard batchDepth == 0 else {
            batchedRedraw = true
            return
        }
        redrawCount += 1
        needsDisplay = true
        onRedraw?()
    }

    /// The frame for the current state has been drawn.
    public func didDisplay() {
        needsDisplay = false
    }

    /// Runs `changes` with redraw requests merged into one at the end.
    func batch(_ changes: () -> Void) {
        batchDepth += 1
        changes()
        batchDepth -= 1
        if batchDepth == 0 && batchedRedraw {
            batchedRedraw = false
            invalidate()
        }
    }

    /// Shows `message` on the message line.
    public func report(_ message: String) {
        diagnostic = message
        invalidate()
    }

    // MARK: Loading

    /// Reads the favourites (see ``FavouritesStore/load()``); a corrupt file is reported on the message line.
    public func loadFavourites() async {
        guard let store = favouritesStore else { return }
        let loaded = await store.load()
        favourites.formUnion(loaded.ids)
        if let problem = loaded.problem { diagnostic = problem }
        invalidate()
    }

    /// Fetches and decodes the feed, then shows it (one redraw). No effect while a load is running.
    ///
    /// On failure ``phase`` is `.failed` with a ``FeedError`` and there are no rows.
    public func load() async {
        if case .loading = phase { return }
        loadGeneration &+= 1
        let generation = loadGeneration
        feedLoadCount += 1
        batch {
            phase = .loading
            closeFullView()
            unbindAll()
            invalidate()
        }
        let result = await Self.fetch(feedURL, loader: loader, dateStyle: dateStyle)
        guard generation == loadGeneration else { return }
        batch {
            switch result {
            case .success(let feed):
                feedTitle = feed.title
                rows = feed.rows
                feedDiagnostics = feed.diagnostics
                if !feed.diagnostics.isEmpty { onLog?(feed.diagnostics) }
                phase = .loaded
                selectedIndex = min(selectedIndex, max(0, rows.count - 1))
                firstVisibleIndex = 0
                scrollIntoView()
                updateBindings()
            case .failure(let error):
                rows = []
                phase = .failed(error)
            }
            invalidate()
        }
    }

    /// After a failed load, loads again (in a new task); otherwise retries the failed thumbnails on screen (or the
    /// full view's photo).
    public func retry() {
        if case .failed = phase {
            Task { await self.load() }
        } else if let fullView {
            if case .failure = fullView.slot.phase { fullView.slot.retry() }
        } else {
            retryFailedThumbnails()
        }
    }

    /// Fetch with `loader`, then decode and format on ``WorkerThreadPool/cpu``; never on the main actor.
    @concurrent
    nonisolated static func fetch(
        _ url: URL, loader: FeedLoader, dateStyle: Date.FormatStyle
    ) async -> Result<(title: String, rows: [FeedRow], diagnostics: [String]), FeedError> {
        do {
            let data = try await loader(url)
            return .success(
                try await WorkerThreadPool.cpu.run {
                    let feed = try JSONFeed.decode(data)
                    return (feed.title, FeedRow.rows(of: feed, dateStyle: dateStyle), feed.diagnostics)
                })
        } catch let error as FeedError {
            return .failure(error)
        } catch is CancellationError {
            return .failure(FeedError(.unreachable, "loading was cancelled"))
        } catch {
            return .failure(FeedError(.unreachable, "\(error)"))
        }
    }

    // MARK: Favourites

    /// Marks or unmarks the selected row as a favourite and saves the set (in order, off the main actor).
    public func toggleFavourite() {
        guard case .loaded = phase, rows.indices.contains(selectedIndex) else { return }
        let id = rows[selectedIndex].id
        if favourites.remove(id) == nil { favourites.insert(id) }
        invalidate()
        guard let store = favouritesStore else { return }
        let snapshot = favourites
        let previous = saveTask
        saveTask = Task { [weak self] in
            await previous?.value
            do {
                try await store.save(snapshot)
            } catch {
                self?.report("favourites not saved: \(error)")
            }
        }
    }

    /// Waits until every favourites save started so far has finished.
    public func flushFavourites() async {
        await saveTask?.value
    }
}
