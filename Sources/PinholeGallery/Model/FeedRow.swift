public import Foundation
public import Pinhole

/// One feed item ready to show: its text already formatted (off the main actor, when the feed was decoded).
public struct FeedRow: Sendable, Hashable, Identifiable {
    /// The item's id (unique within the feed); favourites are stored by it.
    public var id: String
    public var title: String
    /// The date formatted in the user's locale, or empty when the item has none.
    public var date: String
    /// The summary on one line (newlines and runs of spaces collapsed), or empty.
    public var summary: String
    /// The thumbnail's source, or `nil`.
    public var imageURL: URL?
    /// The thumbnail's placeholder (the item's `_pinhole.thumbhash`), drawn until the thumbnail arrives; or `nil`.
    public var placeholder: ThumbHash?

    public init(
        id: String, title: String, date: String, summary: String = "", imageURL: URL? = nil,
        placeholder: ThumbHash? = nil
    ) {
        self.placeholder = placeholder
        self.id = id
        self.title = title
        self.date = date
        self.summary = summary
        self.imageURL = imageURL
    }

    /// The rows of `feed`, dates formatted with `dateStyle`.
    public static func rows(of feed: JSONFeed, dateStyle: Date.FormatStyle) -> [FeedRow] {
        feed.items.map { item in
            FeedRow(
                id: item.id,
                title: oneLine(item.title),
                date: item.date.map { $0.formatted(dateStyle) } ?? "",
                summary: oneLine(item.summary ?? ""),
                imageURL: item.image,
                placeholder: item.placeholder
            )
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
