extension FeedScreenModel {
    /// The rows on screen now (indices into ``rows``).
    public var visibleRange: Range<Int> {
        guard case .loaded = phase, !rows.isEmpty else { return 0..<0 }
        let start = min(firstVisibleIndex, rows.count - 1)
        return start..<min(rows.count, start + layout.visibleRowCount)
    }

    /// Applies a key: moves the selection, toggles a favourite or retries. ``Key/quit`` is the app's business
    /// and ignored here.
    public func handle(_ key: Key) {
        let page = layout.visibleRowCount
        switch key {
        case .up: select(selectedIndex - 1)
        case .down: select(selectedIndex + 1)
        case .pageUp: select(selectedIndex - page)
        case .pageDown: select(selectedIndex + page)
        case .home: select(0)
        case .end: select(rows.count - 1)
        case .favourite: toggleFavourite()
        case .retry: retry()
        case .quit: break
        }
    }

    /// Selects row `index` (clamped), scrolling so it is visible; rows that leave the screen cancel their
    /// thumbnails, rows that appear start theirs, and the next screen in the direction of travel is prefetched.
    public func select(_ index: Int) {
        guard case .loaded = phase, !rows.isEmpty else { return }
        let target = min(max(0, index), rows.count - 1)
        guard target != selectedIndex else { return }
        scrollDirection = target > selectedIndex ? 1 : -1
        batch {
            selectedIndex = target
            scrollIntoView()
            updateBindings()
            invalidate()
        }
    }

    /// Adapts to a new terminal size: rows per screen and thumbnail size (thumbnails are requested again at the
    /// new size when it changed).
    public func resize(to size: TerminalSize) {
        let newLayout = ScreenLayout(size: size)
        guard newLayout != layout else { return }
        let thumbnailChanged =
            newLayout.thumbnailColumns != layout.thumbnailColumns || newLayout.thumbnailRows != layout.thumbnailRows
        batch {
            layout = newLayout
            if thumbnailChanged { unbindAll() }
            scrollIntoView()
            updateBindings()
            invalidate()
        }
    }

    /// Moves ``firstVisibleIndex`` the least needed to show the selection, and never past the end.
    func scrollIntoView() {
        let page = layout.visibleRowCount
        if selectedIndex < firstVisibleIndex { firstVisibleIndex = selectedIndex }
        if selectedIndex >= firstVisibleIndex + page { firstVisibleIndex = selectedIndex - page + 1 }
        firstVisibleIndex = max(0, min(firstVisibleIndex, rows.count - page))
    }
}
