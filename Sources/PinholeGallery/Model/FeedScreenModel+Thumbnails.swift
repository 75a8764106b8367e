import Foundation
public import Pinhole

/// The threads that draw decoded images for the terminal with libchafa: two, so a large full-view picture does
/// not hold up the thumbnails, and so drawing never waits behind decodes on ``WorkerThreadPool/cpu`` and never
/// runs on the main actor.
enum PictureRendering {
    static let pool = WorkerThreadPool(threadCount: 2, name: "pinhole-render")
}

extension FeedScreenModel {
    /// Items bound to an ``ImageSlot`` now (the visible items that have an image), ascending.
    public var boundRowIndices: [Int] { bindings.keys.sorted() }

    /// The slot of item `index`, if it is bound.
    public func slot(forRow index: Int) -> ImageSlot? { bindings[index]?.slot }

    /// Requests being prefetched (the next screen in the direction of travel), at low priority.
    public var prefetchRequests: [ImageRequest] { prefetching }

    /// The thumbnail request of an image for the current layout (list box, or grid tile).
    func thumbnailRequest(
        _ url: URL, placeholder: ThumbHash? = nil, priority: ImageRequest.Priority = .normal
    ) -> ImageRequest {
        let box = layout.thumbnailOptions
        var request = ImageRequest(
            url: thumbnailURL?(url, box) ?? url, thumbnail: box, priority: priority, options: imageOptions)
        request.placeholder = placeholder
        return request
    }

    /// The key of `request`'s thumbnail picture in the current layout.
    func thumbnailKey(_ request: ImageRequest) -> PictureCache.Key {
        let (columns, rows) = layout.pictureBox
        return PictureCache.Key(
            imageKey: request.imageKey, columns: columns, rows: rows, fit: layout.mode == .grid ? .fill : .fit,
            renderer: renderer)
    }

    /// Binds a slot to every visible item with an image, cancels the slots of items that left, and prefetches
    /// the next screen.
    func updateBindings() {
        let visible = visibleRange
        for (index, binding) in bindings where !visible.contains(index) || rows[index].id != binding.itemID {
            binding.slot.cancel()
            bindings[index] = nil
        }
        for index in visible where bindings[index] == nil {
            guard let url = rows[index].imageURL else { continue }
            let slot = ImageSlot(pipeline: pipeline)
            slot.animationTicker = animationTicker
            bindings[index] = RowBinding(slot: slot, itemID: rows[index].id)
            slot.onChange = { [weak self] slot in self?.thumbnailChanged(row: index, slot: slot) }
            slot.load(thumbnailRequest(url, placeholder: rows[index].placeholder))
            if case .success(let response) = slot.phase, response.source == .memoryCache { memoryCacheHits += 1 }
        }
        updatePrefetching(visible: visible)
    }

    /// Cancels every slot and all prefetching of the list or grid.
    func unbindAll() {
        for binding in bindings.values { binding.slot.cancel() }
        bindings.removeAll()
        prefetcher.stopPrefetching()
        prefetching = []
    }

    private func updatePrefetching(visible: Range<Int>) {
        let page = layout.visibleRowCount
        let window =
            scrollDirection >= 0
            ? visible.upperBound..<min(rows.count, visible.upperBound + page)
            : max(0, visible.lowerBound - page)..<visible.lowerBound
        let requests = window.compactMap { rows[$0].imageURL.map { thumbnailRequest($0, priority: .low) } }
        let wanted = Set(requests.map(\.imageKey))
        prefetcher.stopPrefetching(with: prefetching.filter { !wanted.contains($0.imageKey) })
        prefetcher.startPrefetching(with: requests)
        prefetching = requests
    }

    private func thumbnailChanged(row index: Int, slot: ImageSlot) {
        guard let binding = bindings[index], binding.slot === slot else { return }
        if slot.phase.isLoading, let placeholder = slot.placeholder, let request = slot.request {
            let key = thumbnailKey(request).placeholder
            if pictureCache[key] == nil { draw(placeholder, key: key) }
        }
        if case .success(let response) = slot.phase, let request = slot.request {
            let key = thumbnailKey(request)
            if let frame = slot.frameIndex, frame != 0 {
                if let ready = frameToShow(slot, base: key) { bindings[index]?.drawnFrame = ready }
            } else if pictureCache[key] != nil {
                bindings[index]?.drawnFrame = 0
                markShown(row: index)
            } else {
                draw(response.image, key: key)
            }
        }
        invalidate()
    }

    /// Draws `image` on ``PictureRendering/pool`` and stores the picture in the cache; then every binding
    /// waiting for `key` is marked shown and the screen redrawn.
    func draw(_ image: PixelImage, key: PictureCache.Key) {
        guard pendingConversions.insert(key).inserted else { return }
        let cache = key.frame == 0 ? pictureCache : framePictures
        Task { [weak self] in
            let picture = try? await PictureRendering.pool.run {
                key.renderer.render(image, columns: key.columns, rows: key.rows, fit: key.fit)
            }
            if let picture { cache.insert(picture, for: key) }
            self?.drawingFinished(key)
        }
    }

    private func drawingFinished(_ key: PictureCache.Key) {
        pendingConversions.remove(key)
        // A placeholder's picture shows nothing new once its image's own picture is there; the redraw decides.
        if key.isPlaceholder { return invalidate() }
        if key.frame != 0 { return frameDrawingFinished(key) }
        var changed = false
        for (index, binding) in bindings {
            guard case .success = binding.slot.phase, let request = binding.slot.request, thumbnailKey(request) == key
            else { continue }
            markShown(row: index)
            changed = true
        }
        if fullViewDrawingFinished(key) { changed = true }
        if changed { invalidate() }
    }

    private func markShown(row index: Int) {
        guard let binding = bindings[index], !binding.shown, let request = binding.slot.request,
            pictureCache[thumbnailKey(request)] != nil
        else { return }
        bindings[index]?.shown = true
        imagesShown += 1
    }

    /// Loads the failed thumbnails on screen again.
    func retryFailedThumbnails() {
        batch {
            for binding in bindings.values {
                if case .failure = binding.slot.phase { binding.slot.retry() }
            }
        }
    }

    /// What item `index`'s thumbnail shows now.
    func thumbnailState(row index: Int) -> ScreenState.Thumbnail {
        guard rows[index].imageURL != nil else { return .none }
        guard let binding = bindings[index] else { return .loading }
        return pictureState(binding.slot) { shownKey(thumbnailKey($0), frame: binding.drawnFrame) }
    }

    /// What a slot's picture shows now: loading (with the request's placeholder once it is drawn), failed, or the
    /// drawn picture once it is in the cache.
    func pictureState(_ slot: ImageSlot, key: (ImageRequest) -> PictureCache.Key) -> ScreenState.Thumbnail {
        switch slot.phase {
        case .empty, .loading:
            return placeholderState(slot, key: key)
        case .failure(let error):
            return .failed(Self.reason(error))
        case .success:
            guard let request = slot.request, let picture = picture(for: key(request)) else {
                return placeholderState(slot, key: key)
            }
            return .image(picture)
        }
    }

    /// `.placeholder` with the drawn picture of the request's ThumbHash, else `.loading`.
    private func placeholderState(_ slot: ImageSlot, key: (ImageRequest) -> PictureCache.Key) -> ScreenState.Thumbnail {
        guard let request = slot.request, request.placeholder != nil,
            let picture = pictureCache[key(request).placeholder]
        else { return .loading }
        return .placeholder(picture)
    }

    /// `true` once the feed failed, or loaded with every visible thumbnail (or the full view's photo) drawn or
    /// failed.
    public var isSettled: Bool {
        switch phase {
        case .idle, .loading: return false
        case .failed: return true
        case .loaded:
            if fullView != nil { return !isLoading(fullViewThumbnailState()) }
            return visibleRange.allSatisfy { !isLoading(thumbnailState(row: $0)) }
        }
    }

    private func isLoading(_ thumbnail: ScreenState.Thumbnail) -> Bool {
        switch thumbnail {
        case .loading, .placeholder: true
        case .none, .image, .failed: false
        }
    }

    /// A few words for a failed picture: "HTTP 404", "not an image", "network failure".
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PinholeError else { return "failed" }
        if let status = error.httpStatusCode { return "HTTP \(status)" }
        return error.code.kind.replacingOccurrences(of: "_", with: " ")
    }
}
