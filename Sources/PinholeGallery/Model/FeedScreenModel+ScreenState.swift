import Foundation

extension FeedScreenModel {
    /// What is on screen, for per-view frame figures: `fullView`, `grid` or `list`.
    public var viewName: String {
        fullView != nil ? "fullView" : layout.mode.rawValue
    }

    /// The frame's content for the current state: the spinner, the error, the list, the grid or the full view.
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
            let favouriteCount = rows.reduce(0) { $0 + (favourites.contains($1.id) ? 1 : 0) }
            if let index = fullViewIndex {
                let row = stateRow(index, thumbnail: fullViewThumbnailState())
                content = .fullView(
                    .init(row: row, totalCount: rows.count, favouriteCount: favouriteCount, details: fullViewDetails()))
            } else {
                let shown = visibleRange.map { stateRow($0, thumbnail: thumbnailState(row: $0)) }
                let list = ScreenState.ListContent(rows: shown, totalCount: rows.count, favouriteCount: favouriteCount)
                content = layout.mode == .grid ? .grid(list) : .list(list)
            }
        }
        let title =
            phase == .loaded ? (feedTitle.isEmpty ? feedURL.lastPathComponent : feedTitle) : feedURL.absoluteString
        return ScreenState(
            title: title, content: content, message: diagnostic, status: status, spinnerFrame: spinnerFrame,
            pictureMode: renderer.mode)
    }

    private func stateRow(_ index: Int, thumbnail: ScreenState.Thumbnail) -> ScreenState.Row {
        let row = rows[index]
        return ScreenState.Row(
            index: index, title: row.title, date: row.date, summary: row.summary,
            isFavourite: favourites.contains(row.id), isSelected: index == selectedIndex, thumbnail: thumbnail)
    }
}
