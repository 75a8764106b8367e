import Foundation
public import Pinhole

/// The thread that turns decoded thumbnails into terminal cells: one thread, so conversions never wait behind
/// decodes on ``WorkerThreadPool/cpu`` and never run on the main actor.
enum ThumbnailConversion {
    static let pool = WorkerThreadPool(threadCount: 1, name: "pinhole-cells")
}

extension FeedScreenModel {
    /// Rows bound to an ``ImageSlot`` now (the visible rows that have an image), ascending.
    public var boundRowIndices: [Int] { bindings.keys.sorted() }

    /// The slot of row `index`, if it is bound.
    public func slot(forRow index: Int) -> ImageSlot? { bindings[index]?.slot }

    /// Requests being prefetched (the next screen in the direction of travel), at low priority.
    public var prefetchRequests: [ImageRequest] { prefetching }

    /// The thumbnail request of an image at the current size.
    func thumbnailRequest(_ url: URL, priority: ImageRequest.Priority = .normal) -> ImageRequest {
        ImageRequest(url: url, maxPixelSize: layout.requestPixelSize, priority: priority)
    }

    func cellKey(_ request: ImageRequest) -> ThumbnailCellCache.Key {
        ThumbnailCellCache.Key(imageKey: request.imageKey, columns: layout.thumbnailColumns, rows: layout.thumbnailRows)
    }

    /// Binds a slot to every visible row with an image, cancels the slots of rows that left, and prefetches the
    /// next screen.
    func updateBindings() {
        let visible = visibleRange
        for (index, binding) in bindings where !visible.contains(index) || rows[index].id != binding.itemID {
            binding.slot.cancel()
            bindings[index] = nil
        }
        for index in visible where bindings[index] == nil {
            guard let url = rows[index].imageURL else { continue }
            let slot = ImageSlot(pipeline: pipeline)
            bindings[index] = RowBinding(slot: slot, itemID: rows[index].id)
            slot.onChange = { [weak self] slot in self?.slotChanged(row: index, slot: slot) }
            slot.load(thumbnailRequest(url))
            if case .success(let response) = slot.phase, response.source == .memoryCache { memoryCacheHits += 1 }
        }
        updatePrefetching(visible: visible)
    }

    /// Cancels every slot and all prefetching.
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

    private func slotChanged(row index: Int, slot: ImageSlot) {
        guard let binding = bindings[index], binding.slot === slot else { return }
        if case .success(let response) = slot.phase, let request = slot.request {
            let key = cellKey(request)
            if cellCache[key] != nil {
                markShown(row: index)
            } else {
                convert(response.image, key: key)
            }
        }
        invalidate()
    }

    /// Converts `image` to cells on ``ThumbnailConversion/pool`` and stores them in the cell cache.
    private func convert(_ image: PixelImage, key: ThumbnailCellCache.Key) {
        guard pendingConversions.insert(key).inserted else { return }
        let cache = cellCache
        Task { [weak self] in
            let cells = try? await ThumbnailConversion.pool.run {
                HalfBlockImage(image, columns: key.columns, rows: key.rows)
            }
            if let cells { cache.insert(cells, for: key) }
            self?.conversionFinished(key)
        }
    }

    private func conversionFinished(_ key: ThumbnailCellCache.Key) {
        pendingConversions.remove(key)
        var changed = false
        for (index, binding) in bindings {
            guard case .success = binding.slot.phase, let request = binding.slot.request, cellKey(request) == key
            else { continue }
            markShown(row: index)
            changed = true
        }
        if changed { invalidate() }
    }

    private func markShown(row index: Int) {
        guard bindings[index]?.shown == false, cellCache[cellKey(bindings[index]?.slot.request)] != nil else { return }
        bindings[index]?.shown = true
        imagesShown += 1
    }

    private func cellKey(_ request: ImageRequest?) -> ThumbnailCellCache.Key {
        guard let request else {
            return ThumbnailCellCache.Key(imageKey: ImageKey(sourceKey: "", thumbnail: nil), columns: 0, rows: 0)
        }
        return cellKey(request)
    }

    /// Loads the failed thumbnails on screen again.
    func retryFailedThumbnails() {
        batch {
            for binding in bindings.values {
                if case .failure = binding.slot.phase { binding.slot.retry() }
            }
        }
    }

    /// What row `index`'s thumbnail shows now.
    func thumbnailState(row index: Int) -> ScreenState.Thumbnail {
        guard rows[index].imageURL != nil else { return .none }
        guard let slot = bindings[index]?.slot else { return .loading }
        switch slot.phase {
        case .empty, .loading:
            return .loading
        case .failure(let error):
            return .failed(Self.reason(error))
        case .success:
            guard let request = slot.request, let cells = cellCache[cellKey(request)] else { return .loading }
            return .image(cells)
        }
    }

    /// `true` once the feed failed, or loaded with every visible thumbnail drawn or failed.
    public var isSettled: Bool {
        switch phase {
        case .idle, .loading: return false
        case .failed: return true
        case .loaded:
            return visibleRange.allSatisfy { index in
                switch thumbnailState(row: index) {
                case .loading: false
                case .none, .image, .failed: true
                }
            }
        }
    }

    /// A few words for a failed thumbnail: "HTTP 404", "not an image", "network failure".
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PinholeError else { return "failed" }
        if let status = error.httpStatusCode { return "HTTP \(status)" }
        return error.code.kind.replacingOccurrences(of: "_", with: " ")
    }

    /// The frame's content for the current state.
    ///
    /// - Parameters:
    ///   - status: the status line (composed by the app).
    ///   - spinnerFrame: the spinner's frame counter.
    public func screenState(status: String = "", spinnerFrame: Int = 0) -> ScreenState {
        let content: ScreenState.Content
        switch phase {
        case .idle, .loading:
            content = .loading
        case .failed(let error):
            content = .failed(error)
        case .loaded:
            let shown = visibleRange.map { index in
                let row = rows[index]
                return ScreenState.Row(
                    index: index, title: row.title, date: row.date, summary: row.summary,
                    isFavourite: favourites.contains(row.id), isSelected: index == selectedIndex,
                    thumbnail: thumbnailState(row: index))
            }
            let favouriteCount = rows.reduce(0) { $0 + (favourites.contains($1.id) ? 1 : 0) }
            content = .list(.init(rows: shown, totalCount: rows.count, favouriteCount: favouriteCount))
        }
        let title =
            phase == .loaded ? (feedTitle.isEmpty ? feedURL.lastPathComponent : feedTitle) : feedURL.absoluteString
        return ScreenState(
            title: title, content: content, message: diagnostic, status: status, spinnerFrame: spinnerFrame)
    }
}
