public import Observation

/// Binds one view (a list row, a cell, a terminal row) to one image request, so that the view never shows
/// an image that is not its own.
///
/// - ``load(_:)`` starts the new request at once; the slot's previous work is cancelled off the main actor, after
///   the caller's main-actor job (``CancellationBatch``). A memory-cache hit is applied synchronously (``phase``
///   goes straight to `.success`, with no loading flash).
/// - ``load(_:)`` with the request the slot already loads or shows (the same image identity, see ``ImageRequest``)
///   is a no-op: nothing is cancelled or restarted (SwiftUI may call `.task` or `onAppear` again); only a new
///   priority is passed on to the running load. After a failure or ``cancel()``, the same request loads again.
/// - A result is applied only if it belongs to the slot's *current* request (a generation token): a late
///   result for an older request is dropped and counted in ``staleResultsDropped``.
/// - With ``keepsPreviousImageWhileLoading`` on, a new request keeps the image shown before it in ``previous``
///   (``image`` draws it) until the new image arrives (a failure or ``cancel()`` keeps it);
///   ``prepareForReuse()`` is how a reused view says "another row" (it forgets the old row's image), and
///   `load(nil)` forgets it too. The generation rule is unchanged: a result of an older request still never lands.
/// - ``cancel()`` when the view disappears (or ``disappear()``, which follows ``disappearBehavior``: cancel, or
///   only lower the priority so a row scrolled back into view finds its load still running); ``retry()`` after a
///   failure.
///
/// Isolation: the main actor. Loading itself runs off it (the pipeline decodes on its own threads).
/// Observe ``phase`` with Observation (SwiftUI), set ``onChange``, iterate ``phases`` (any number of observers),
/// or await ``response``.
@MainActor
@Observable
public final class ImageSlot {
    /// What the view should show.
    public enum Phase: Sendable {
        /// No request (or cancelled before it finished).
        case empty
        /// Waiting for the image: show a placeholder.
        case loading
        /// The image of the current request.
        case success(ImageResponse)
        /// The current request failed (never `CancellationError`): show an error mark and offer ``ImageSlot/retry()``.
        case failure(any Error)

        /// The image, in `.success`.
        public var response: ImageResponse? {
            if case .success(let response) = self { return response }
            return nil
        }

        /// `true` in `.loading`.
        public var isLoading: Bool {
            if case .loading = self { return true }
            return false
        }
    }

    /// The pipeline that loads.
    @ObservationIgnored public let pipeline: ImagePipeline
    /// What the view shows now.
    public private(set) var phase: Phase = .empty
    /// The request the slot is bound to (the latest one given to ``load(_:)``).
    public private(set) var request: ImageRequest?
    /// Results that arrived for an older request and were dropped (never shown).
    @ObservationIgnored public private(set) var staleResultsDropped = 0
    /// Called on the main actor after every change of ``phase``; `nil` by default.
    @ObservationIgnored public var onChange: (@MainActor (ImageSlot) -> Void)?

    /// What ``disappear()`` does; ``DisappearBehavior/cancel`` by default.
    @ObservationIgnored public var disappearBehavior: DisappearBehavior = .cancel
    /// Bytes received and expected (when known) for the current request's download; `nil` when nothing is being
    /// downloaded for it (a cache hit, a file, or before the first bytes).
    public internal(set) var progress: ImageTask.Progress?
    /// The latest progressive preview of the current request (``ImageRequest/Options/progressivePreviews``), shown
    /// while ``phase`` is `.loading`; `nil` otherwise. Never cached.
    public internal(set) var preview: ImageResponse?
    /// The current request's ``ImageRequest/placeholder`` decoded (32 px on its longer side, `rgba8`): what to draw
    /// while ``phase`` is `.loading`, before any ``preview``; `nil` without one, for an image found in memory, and
    /// while a ``previous`` image is kept (it beats the placeholder).
    public private(set) var placeholder: PixelImage?
    /// Whether a new request keeps the image shown now (in ``previous``, drawn by ``image``) while it loads, so a
    /// refresh that gives a row a new URL does not flash back to the placeholder; `false` by default.
    ///
    /// The kept image belongs to the slot's logical row: call ``prepareForReuse()`` when a reused view (a
    /// `UICollectionViewCell`, a recycled terminal row) is bound to another row, or the old row's image shows until
    /// the new one arrives. A SwiftUI row whose slot lives in its `@State` is reused for the same item only. Set it
    /// before ``load(_:)``: it is read when a load starts, and is not observed.
    @ObservationIgnored public var keepsPreviousImageWhileLoading = false
    /// The image shown before the current request, kept while it loads (``keepsPreviousImageWhileLoading``); `nil`
    /// when off, when nothing was shown, and once the current request's image arrives.
    ///
    /// A failure keeps it (``phase`` is `.failure`, and a view may draw the old picture with an error mark, or
    /// not); ``cancel()`` keeps it (the row is still the same row); ``prepareForReuse()`` and `load(nil)` drop it.
    public private(set) var previous: ImageResponse?
    /// What to draw now, best first: the current image (`.success`), else the current request's ``preview``, else
    /// the ``previous`` image; `nil` otherwise (draw ``placeholder``, if any).
    /// While an animation plays (``animationTicker``), its frame shown now.
    public var image: PixelImage? { animatedFrame ?? phase.image ?? preview?.image ?? previous?.image }
    /// The ticker that plays the animations of this slot's responses (``ImageRequest/Options/animated``); `nil`
    /// by default: the slot shows the first frame, a still. Set it before ``load(_:)``; not observed.
    @ObservationIgnored public var animationTicker: AnimationTicker?
    /// The frame of ``ImageResponse/animation`` shown now (``image`` is it); `nil` when not animating.
    public internal(set) var frameIndex: Int?
    /// The frame shown now while animating, past frame 0; `nil` otherwise.
    var animatedFrame: PixelImage?
    /// Not API, for `pinhole bench scroll --strategy unguarded` only: `false` switches "latest wins" off, the
    /// generation check and the cancellation of the previous request in ``load(_:)`` that backs it, so a result of
    /// an older request is applied when it arrives. That is the bug this type exists to prevent, reproduced on
    /// purpose to show that the scroll reproduction's wrong-row measure can see it.
    @ObservationIgnored package var checksGeneration = true

    /// The task that waits for the current load and applies its result (internal for tests: they await it).
    @ObservationIgnored private(set) var task: Task<Void, Never>?
    @ObservationIgnored var imageTask: ImageTask?
    @ObservationIgnored private(set) var generation: UInt64 = 0
    @ObservationIgnored var observers: [UInt64: AsyncStream<Phase>.Continuation] = [:]

    public init(pipeline: ImagePipeline) {
        self.pipeline = pipeline
    }

    /// Binds the slot to `request` (or to nothing, for `nil`), cancelling the previous request's work.
    ///
    /// A request with the identity of the one the slot is loading or showing changes nothing but the running
    /// load's priority: no cancel, no restart.
    public func load(_ request: ImageRequest?) {
        load(request, loading: request)
    }

    /// Binds the slot to `request` and loads `loading` (the same request, or its reload for ``retry()``).
    private func load(_ request: ImageRequest?, loading: ImageRequest?) {
        if let request, let current = self.request, request.imageJobKey == current.imageJobKey,
            phase.isLoading || phase.response != nil
        {
            self.request = request
            imageTask?.priority = request.priority
            startAnimating()
            return
        }
        stop(cancellingTheRunningLoad: checksGeneration)
        // Taken before the phase changes: the image on screen now, or the one already kept by an earlier refresh.
        let shown = keepsPreviousImageWhileLoading ? phase.response ?? previous : nil
        self.request = request
        progress = nil
        preview = nil
        placeholder = nil
        previous = nil
        guard let request, let loading else { return setPhase(.empty) }
        if let cached = pipeline.cachedImage(for: loading) { return setPhase(.success(cached)) }
        previous = shown
        if shown == nil { placeholder = request.placeholder?.decoded() }
        setPhase(.loading)
        let generation = self.generation
        // Started here, not in a later job: `imageTask(for:)` joins the image job already running for the request
        // (a prefetch's) before it returns, so a prefetch the caller stops later in this job leaves that job to
        // the slot, and its download goes on instead of starting again.
        let imageTask = pipeline.imageTask(for: loading)
        self.imageTask = imageTask
        task = Task { [weak self] in
            // `self` is held for one event at a time, never across the wait for the next one: a slot dropped
            // without `cancel()` is freed meanwhile, and its deinit cancels this load.
            var finished: Result<ImageResponse, any Error>?
            for await event in imageTask.events {
                guard let slot = self else { return imageTask.cancel() }
                if case .finished(let result) = event {
                    finished = result
                    break
                }
                slot.follow(event, generation: generation)
            }
            let result: Result<ImageResponse, any Error>
            if let finished {
                result = finished
            } else {
                do { result = .success(try await imageTask.response) } catch { result = .failure(error) }
            }
            if case .failure(let error) = result, error is CancellationError { return }
            self?.apply(result, generation: generation)
        }
    }

    /// A slot dropped without ``cancel()`` stops its load: nothing will show the result. Not an `isolated deinit`
    /// (that needs a Swift 6.2 runtime on Apple platforms): the cancels run on a task of their own, as
    /// ``CancellationBatch`` runs them, never inside the release of the slot.
    deinit {
        let (task, imageTask) = (task, imageTask)
        guard task != nil || imageTask != nil else { return }
        Task.detached(priority: .utility) {
            imageTask?.cancel()
            task?.cancel()
        }
    }

    /// Stops the current request (the view went away). The phase becomes `.empty` unless an image is shown; a kept
    /// ``previous`` image stays (the view is still the same row's: use ``prepareForReuse()`` for another row).
    public func cancel() {
        stop()
        progress = nil
        preview = nil
        placeholder = nil
        if phase.isLoading { setPhase(.empty) }
    }

    /// The view is about to show another row (`prepareForReuse()` of a cell): cancels the current request and
    /// forgets everything of the old row, its image and a kept ``previous`` one included. ``phase`` becomes
    /// `.empty`; the next ``load(_:)`` shows the new request's placeholder, never the old row's picture.
    public func prepareForReuse() {
        load(nil)
    }

    /// Cancels the running load, if any, and makes any result still on its way stale.
    private func stop(cancellingTheRunningLoad cancels: Bool = true) {
        // Off the main actor, batched with the other slots' cancels of this turn (``CancellationBatch``): the slot
        // need not wait for it, its generation token already keeps a late result out.
        if cancels { CancellationBatch.cancel(task, imageTask) }
        imageTask = nil
        task = nil
        generation &+= 1
        stopAnimating()
    }

    /// Loads the current request again after a failure, past the cached copies and the failures the pipeline
    /// keeps for its source (as ``ImageRequest/Options/reloadIgnoringCachedData`` does); no effect otherwise.
    public func retry() {
        guard case .failure = phase, let request else { return }
        var reload = request
        reload.options.insert(.reloadIgnoringCachedData)
        load(request, loading: reload)
    }

    private func apply(_ result: Result<ImageResponse, any Error>, generation: UInt64) {
        guard generation == self.generation || !checksGeneration else {
            staleResultsDropped += 1
            return
        }
        task = nil
        imageTask = nil
        preview = nil
        switch result {
        case .success(let response):
            previous = nil
            setPhase(.success(response))
        case .failure(let error): setPhase(.failure(error))
        }
    }

    private func setPhase(_ phase: Phase) {
        self.phase = phase
        notifyObservers()
        startAnimating()
    }

    /// Tells ``onChange`` and the ``phases`` observers of a change (of the phase, or of the frame shown).
    func notifyObservers() {
        onChange?(self)
        for observer in observers.values { observer.yield(phase) }
    }
}
