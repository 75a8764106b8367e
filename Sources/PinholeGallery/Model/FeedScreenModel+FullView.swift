import Foundation
public import Pinhole

extension FeedScreenModel {
    /// Opens the full view of the selected item: its photo decoded through the pipeline at the size of the
    /// terminal's picture box (``ScreenLayout/fullViewThumbnailOptions``), at high priority, with the previous
    /// and next photos prefetched at the same size. The list or grid stays as it was, for ``closeFullView()``.
    public func openFullView() {
        guard case .loaded = phase, rows.indices.contains(selectedIndex), fullView == nil else { return }
        batch {
            bindFullView(selectedIndex)
            invalidate()
        }
    }

    /// Shows item `index` (clamped) in the full view; the selection follows it.
    func showFullView(_ index: Int) {
        guard let current = fullViewIndex, !rows.isEmpty else { return }
        let target = min(max(0, index), rows.count - 1)
        guard target != current else { return }
        scrollDirection = target > current ? 1 : -1
        batch {
            bindFullView(target)
            invalidate()
        }
    }

    /// Leaves the full view: back to the list or grid, scrolled as before (or as little as needed to show the
    /// item last viewed, which is now selected).
    public func closeFullView() {
        guard let fullView else { return }
        fullView.slot.cancel()
        self.fullView = nil
        fullViewPrefetcher.stopPrefetching()
        fullViewPrefetching = []
        batch {
            scrollIntoView()
            updateBindings()
            invalidate()
        }
    }

    /// The full view's request for `url`.
    func fullViewRequest(_ url: URL, priority: ImageRequest.Priority) -> ImageRequest {
        let box = layout.fullViewThumbnailOptions
        return ImageRequest(
            url: thumbnailURL?(url, box) ?? url, thumbnail: box, priority: priority, options: imageOptions)
    }

    /// The key of the full view's picture for `request`.
    func fullViewKey(_ request: ImageRequest) -> PictureCache.Key {
        let (columns, rows) = layout.fullViewBox
        return PictureCache.Key(imageKey: request.imageKey, columns: columns, rows: rows, fit: .fit, renderer: renderer)
    }

    /// Binds the full view to item `index` (replacing what it showed) and prefetches its neighbours.
    func bindFullView(_ index: Int) {
        fullView?.slot.cancel()
        selectedIndex = index
        let slot = ImageSlot(pipeline: pipeline)
        slot.animationTicker = animationTicker
        fullView = FullViewBinding(index: index, slot: slot)
        if let url = rows[index].imageURL {
            slot.onChange = { [weak self] slot in self?.fullViewChanged(slot) }
            slot.load(fullViewRequest(url, priority: .high))
        }
        let neighbours = [index + scrollDirection, index - scrollDirection].filter(rows.indices.contains)
        let requests = neighbours.compactMap { rows[$0].imageURL.map { fullViewRequest($0, priority: .low) } }
        let wanted = Set(requests.map(\.imageKey))
        fullViewPrefetcher.stopPrefetching(with: fullViewPrefetching.filter { !wanted.contains($0.imageKey) })
        fullViewPrefetcher.startPrefetching(with: requests)
        fullViewPrefetching = requests
    }

    /// Requests being prefetched for the full view (the neighbours of the photo shown), at low priority.
    public var fullViewPrefetchRequests: [ImageRequest] { fullViewPrefetching }

    private func fullViewChanged(_ slot: ImageSlot) {
        guard let fullView, fullView.slot === slot else { return }
        if case .success(let response) = slot.phase, let request = slot.request {
            let key = fullViewKey(request)
            if let frame = slot.frameIndex, frame != 0 {
                if let ready = frameToShow(slot, base: key) { self.fullView?.drawnFrame = ready }
            } else if pictureCache[key] != nil {
                self.fullView?.drawnFrame = 0
                markFullViewShown()
            } else {
                draw(response.image, key: key)
            }
        }
        invalidate()
    }

    /// Called when a picture was drawn: marks the full view shown if it was waiting for `key`.
    func fullViewDrawingFinished(_ key: PictureCache.Key) -> Bool {
        guard let fullView, case .success = fullView.slot.phase, let request = fullView.slot.request,
            fullViewKey(request) == key
        else { return false }
        markFullViewShown()
        return true
    }

    private func markFullViewShown() {
        guard let fullView, !fullView.shown, let request = fullView.slot.request,
            pictureCache[fullViewKey(request)] != nil
        else { return }
        self.fullView?.shown = true
        fullViewsShown += 1
    }

    /// What the full view's picture shows now.
    func fullViewThumbnailState() -> ScreenState.Thumbnail {
        guard let fullView else { return .none }
        guard rows[fullView.index].imageURL != nil else { return .none }
        return pictureState(fullView.slot) { shownKey(fullViewKey($0), frame: fullView.drawnFrame) }
    }

    /// "JPEG · 4000×3000 px" for the full view's photo once it has loaded, followed by where its time went when
    /// the pipeline collects task metrics ("· network 182 ms: first_byte 120, decode 40, download 12").
    func fullViewDetails() -> String {
        guard let response = fullView?.slot.phase.response else { return "" }
        let info = response.info
        let details = "\(info.format.name.uppercased()) · \(info.width)×\(info.height) px"
        return response.metrics.map { details + " · \($0)" } ?? details
    }
}
