public import Foundation
public import Pinhole

/// A JSON Feed document, version 1 or 1.1 (https://jsonfeed.org/version/1.1): the fields Pinhole shows.
///
/// Lenient where real feeds are sloppy (an `id` given as a number, dates with or without fractional seconds,
/// `image` missing), strict where it matters: a document that is not JSON, or JSON without a JSON Feed
/// `version` and an `items` array, fails with a ``FeedError``.
public struct JSONFeed: Sendable, Hashable, Decodable {
    /// The `version` URL (`https://jsonfeed.org/version/1.1`).
    public var version: String
    /// The feed's title.
    public var title: String
    /// The items, in document order.
    public var items: [Item]

    /// One entry of the feed.
    public struct Item: Sendable, Hashable, Decodable, Identifiable {
        /// Unique within the feed (numbers are turned into strings).
        public var id: String
        /// The item's title; empty when absent.
        public var title: String
        /// The page the item links to.
        public var url: URL?
        /// The main image (`image`, else `banner_image`).
        public var image: URL?
        /// `date_published`, else `date_modified` (RFC 3339).
        public var date: Date?
        /// `summary`, else `content_text`.
        public var summary: String?
        /// The placeholder of the item's image: the `_pinhole` extension's `thumbhash` (base64), see
        /// `JSONFeed+Extension.swift`; `nil` when absent or unusable.
        public var placeholder: ThumbHash?
        /// Why a `_pinhole` extension present in the item was ignored, for the gallery's log; `nil` otherwise.
        public var extensionProblem: String?

        enum CodingKeys: String, CodingKey {
            case id, title, url, image, summary
            case pinhole = "_pinhole"
            case bannerImage = "banner_image"
            case datePublished = "date_published"
            case dateModified = "date_modified"
            case contentText = "content_text"
        }

        public init(
            id: String, title: String, url: URL? = nil, image: URL? = nil, date: Date? = nil, summary: String? = nil,
            placeholder: ThumbHash? = nil
        ) {
            self.placeholder = placeholder
            self.id = id
            self.title = title
            self.url = url
            self.image = image
            self.date = date
            self.summary = summary
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let text = try? container.decode(String.self, forKey: .id) {
                id = text
            } else if let number = try? container.decode(Int.self, forKey: .id) {
                id = String(number)
            } else {
                throw DecodingError.dataCorruptedError(
                    forKey: .id, in: container, debugDescription: "item without an id")
            }
            title = (try? container.decodeIfPresent(String.self, forKey: .title)) ?? ""
            url = Self.url(container, .url)
            image = Self.url(container, .image) ?? Self.url(container, .bannerImage)
            let published = (try? container.decodeIfPresent(String.self, forKey: .datePublished)) ?? nil
            let modified = (try? container.decodeIfPresent(String.self, forKey: .dateModified)) ?? nil
            date = (published ?? modified).flatMap(JSONFeed.parseDate)
            let summaryText = (try? container.decodeIfPresent(String.self, forKey: .summary)) ?? nil
            let contentText = (try? container.decodeIfPresent(String.self, forKey: .contentText)) ?? nil
            summary = summaryText ?? contentText
            (placeholder, extensionProblem) = Self.pinholeExtension(container, id: id)
        }

        private static func url(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> URL? {
            guard let text = (try? container.decodeIfPresent(String.self, forKey: key)) ?? nil else { return nil }
            return URL(string: text)
        }
    }

    public init(version: String = "https://jsonfeed.org/version/1.1", title: String, items: [Item]) {
        self.version = version
        self.title = title
        self.items = items
    }

    enum CodingKeys: String, CodingKey { case version, title, items }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(String.self, forKey: .version)
        title = (try? container.decodeIfPresent(String.self, forKey: .title)) ?? ""
        items = try container.decode([Item].self, forKey: .items)
    }

    /// Parses a JSON Feed document.
    ///
    /// - Throws: ``FeedError`` with ``FeedError/Kind/invalidJSON`` (not JSON), ``FeedError/Kind/notAFeed``
    ///   (JSON, but no JSON Feed `version` or no `items`).
    public static func decode(_ data: Data) throws(FeedError) -> JSONFeed {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw FeedError(.invalidJSON, "the feed is not valid JSON")
        }
        guard let dictionary = object as? [String: Any],
            let version = dictionary["version"] as? String, version.hasPrefix("https://jsonfeed.org/version/")
        else {
            throw FeedError(.notAFeed, "the document is JSON but not a JSON Feed (no jsonfeed.org version)")
        }
        do {
            return try JSONDecoder().decode(JSONFeed.self, from: data)
        } catch {
            throw FeedError(.notAFeed, "the JSON Feed is malformed: \(error)")
        }
    }

    /// Why items' `_pinhole` extensions were ignored, one line per item, in document order.
    public var diagnostics: [String] { items.compactMap(\.extensionProblem) }

    /// RFC 3339 with or without fractional seconds.
    static func parseDate(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return try? fractional.parse(text)
    }
}
