/// Everything one frame shows, as plain values: the input of ``ScreenRenderer``.
///
/// Built by ``FeedScreenModel/screenState(status:spinnerFrame:)`` on the main actor; pure data, so the
/// renderer can be tested (and snapshot-tested) without a model, a pipeline or a terminal.
public struct ScreenState: Sendable, Hashable {
    /// What the list area shows.
    public enum Content: Sendable, Hashable {
        /// The feed is loading: a spinner.
        case loading
        /// The feed failed: the error and how to retry.
        case failed(FeedError)
        /// The feed's rows, one per line group.
        case list(ListContent)
        /// The feed's items as a grid of square tiles (the same content, laid out by ``ScreenLayout``).
        case grid(ListContent)
        /// One photo over the whole screen, with its metadata.
        case fullView(FullViewContent)
    }

    /// The full view of one item.
    public struct FullViewContent: Sendable, Hashable {
        /// The item, as a row (title, date, summary, favourite); its ``Row/thumbnail`` is the large picture.
        public var row: Row
        /// Items in the feed.
        public var totalCount: Int
        /// Items marked favourite.
        public var favouriteCount: Int
        /// "JPEG · 4000×3000 px" once the photo has loaded (its format and full size), else empty.
        public var details: String

        public init(row: Row, totalCount: Int, favouriteCount: Int, details: String = "") {
            self.row = row
            self.totalCount = totalCount
            self.favouriteCount = favouriteCount
            self.details = details
        }
    }

    /// The visible part of a loaded feed.
    public struct ListContent: Sendable, Hashable {
        /// The rows on screen, top to bottom.
        public var rows: [Row]
        /// Items in the feed.
        public var totalCount: Int
        /// Items marked favourite.
        public var favouriteCount: Int

        public init(rows: [Row], totalCount: Int, favouriteCount: Int) {
            self.rows = rows
            self.totalCount = totalCount
            self.favouriteCount = favouriteCount
        }
    }

    /// One row.
    public struct Row: Sendable, Hashable {
        /// 0-based index in the feed.
        public var index: Int
        public var title: String
        /// The formatted date, or empty.
        public var date: String
        public var summary: String
        public var isFavourite: Bool
        public var isSelected: Bool
        public var thumbnail: Thumbnail

        public init(
            index: Int, title: String, date: String, summary: String = "", isFavourite: Bool = false,
            isSelected: Bool = false, thumbnail: Thumbnail = .none
        ) {
            self.index = index
            self.title = title
            self.date = date
            self.summary = summary
            self.isFavourite = isFavourite
            self.isSelected = isSelected
            self.thumbnail = thumbnail
        }
    }

    /// The state of a row's thumbnail.
    public enum Thumbnail: Sendable, Hashable {
        /// The item has no image.
        case none
        /// Loading (or converting): a placeholder.
        case loading
        /// Loading, with the picture of the request's ThumbHash placeholder to draw meanwhile (drawn like
        /// ``image(_:)``, captioned like ``loading``).
        case placeholder(TerminalPicture)
        /// Ready: the picture to draw (its box is the layout's thumbnail, tile or full-view box).
        case image(TerminalPicture)
        /// Failed, with a short reason; `r` retries.
        case failed(String)
    }

    /// The feed's title (or its address while loading).
    public var title: String
    public var content: Content
    /// The message line: a diagnostic, or the key help when `nil`.
    public var message: String?
    /// The status line (frame times, threads, requests…), composed by the app.
    public var status: String
    /// The spinner's frame counter (advances once per frame while loading).
    public var spinnerFrame: Int
    /// How pictures are drawn. With an image protocol, a picture box that waits for its picture stays blank (or
    /// shows its ThumbHash placeholder's picture, ``Thumbnail/placeholder(_:)``) and a grid tile's selection shows
    /// on its caption only, so the text under a picture does not change when it arrives or when the selection moves
    /// (rewriting that text would erase a sixel picture and send it again).
    public var pictureMode: GraphicsMode

    public init(
        title: String, content: Content, message: String? = nil, status: String = "", spinnerFrame: Int = 0,
        pictureMode: GraphicsMode = .symbols
    ) {
        self.title = title
        self.content = content
        self.message = message
        self.status = status
        self.spinnerFrame = spinnerFrame
        self.pictureMode = pictureMode
    }
}
