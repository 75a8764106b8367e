extension FeedScreenModel {
    /// The items on screen now in the list or grid (indices into ``rows``).
    public var visibleRange: Range<Int> {
        guard case .loaded = phase, !rows.isEmpty else { return 0..<0 }
        let start = min(firstVisibleIndex, rows.count - 1)
        return start..<min(rows.count, start + layout.visibleRowCount)
    }

    /// Applies a key. In the list or grid: moves the selection (↑/↓ by a line of items, ←/→ by one item in the
    /// grid, a screen with PgUp/PgDn), opens the full view (Enter), switches list/grid (`g`), toggles a favourite
    /// or retries. In the full view: ←/→ show the previous/next photo, Esc goes back, `f` and `r` work on the
    /// photo shown. ``Key/quit`` is the app's business and ignored here.
    public func handle(_ key: Key) {
        if let index = fullViewIndex {
            switch key {
            case .left, .up: showFullView(index - 1)
            case .right, .down: showFullView(index + 1)
            case .back: closeFullView()
            case .favourite: toggleFavourite()
            case .retry: retry()
            case .pageUp, .pageDown, .home, .end, .open, .toggleLayout, .quit: break
            }
            return
        }
        let page = layout.visibleRowCount
        switch key {
        case .up: select(selectedIndex - layout.lineStep)
        case .down: select(selectedIndex + layout.lineStep)
        case .left: if layout.mode == .grid { select(selectedIndex - 1) }
        case .right: if layout.mode == .grid { select(selectedIndex + 1) }
        case .pageUp: select(selectedIndex - page)
        case .pageDown: select(selectedIndex + page)
        case .home: select(0)
        case .end: select(rows.count - 1)
        case .open: openFullView()
        case .toggleLayout: switchLayout(to: layout.mode.toggled)
        case .favourite: toggleFavourite()
        case .retry: retry()
        case .back, .quit: break
        }
    }

    /// Selects item `index` (clamped), scrolling so it is visible; items that leave the screen cancel their
    /// thumbnails, items that appear start theirs, and the next screen in the direction of travel is prefetched.
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

    /// Shows the items as a list or a grid; the selection stays and is scrolled into view, and thumbnails are
    /// requested again for the new box (a grid tile is square and filled).
    public func switchLayout(to mode: LayoutMode) {
        guard mode != layout.mode else { return }
        batch {
            layout = layout.with(mode: mode)
            unbindAll()
            scrollIntoView()
            updateBindings()
            invalidate()
        }
    }

    /// Adapts to a new terminal size (and cell size, when the terminal reports a new one): items per screen and
    /// picture sizes; pictures are requested again when their box changed.
    public func resize(to size: TerminalSize, cellPixelSize: CellPixelSize? = nil) {
        let newLayout = layout.with(size: size, cellPixelSize: cellPixelSize)
        guard newLayout != layout else { return }
        let picturesChanged =
            newLayout.pictureBox != layout.pictureBox || newLayout.thumbnailOptions != layout.thumbnailOptions
        let fullViewChanged =
            newLayout.fullViewBox != layout.fullViewBox
            || newLayout.fullViewThumbnailOptions != layout.fullViewThumbnailOptions
        batch {
            layout = newLayout
            if let cellPixelSize { renderer = renderer.with(cellPixelSize: cellPixelSize) }
            if picturesChanged { unbindAll() }
            scrollIntoView()
            updateBindings()
            if fullViewChanged, let index = fullViewIndex { bindFullView(index) }
            invalidate()
        }
    }

    /// Moves ``firstVisibleIndex`` the least needed to show the selection, by whole lines of items (a grid's
    /// first item is always the first of a row of tiles), and never past the end.
    func scrollIntoView() {
        let step = max(1, layout.lineStep)
        let linesPerScreen = max(1, layout.visibleRowCount / step)
        let selectedLine = selectedIndex / step
        var firstLine = firstVisibleIndex / step
        if selectedLine < firstLine { firstLine = selectedLine }
        if selectedLine >= firstLine + linesPerScreen { firstLine = selectedLine - linesPerScreen + 1 }
        let totalLines = (rows.count + step - 1) / step
        firstLine = max(0, min(firstLine, totalLines - linesPerScreen))
        firstVisibleIndex = firstLine * step
    }
}
