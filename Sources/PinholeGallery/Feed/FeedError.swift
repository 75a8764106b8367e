/// Why a feed could not be shown: a typed kind (for the error screen and for tests) and a sentence for people.
public struct FeedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of failure.
    public enum Kind: String, Sendable, Hashable {
        /// The bytes are not JSON.
        case invalidJSON = "invalid_json"
        /// JSON, but not a JSON Feed.
        case notAFeed = "not_a_feed"
        /// The server could not be reached (no network, connection refused, DNS, timeout).
        case offline
        /// The server answered with a status outside 200…299 (see ``FeedError/statusCode``).
        case httpStatus = "http_status"
        /// The feed could not be fetched for another reason (missing or unreadable file, unsupported URL).
        case unreachable
    }

    /// The class of failure.
    public var kind: Kind
    /// A sentence for people.
    public var message: String
    /// The HTTP status code, for ``Kind/httpStatus``; `nil` otherwise.
    public var statusCode: Int?

    /// - Parameters:
    ///   - kind: the class of failure.
    ///   - message: a sentence for people.
    ///   - statusCode: the HTTP status, for ``Kind/httpStatus``; `nil` by default.
    public init(_ kind: Kind, _ message: String, statusCode: Int? = nil) {
        self.kind = kind
        self.message = message
        self.statusCode = statusCode
    }

    public var description: String { "\(kind.rawValue): \(message)" }

    /// A short headline for the error screen, e.g. "You are offline" or "The server answered 503".
    public var headline: String {
        switch kind {
        case .invalidJSON: "The feed is not valid JSON"
        case .notAFeed: "The document is not a JSON Feed"
        case .offline: "The feed's server cannot be reached"
        case .httpStatus: "The server answered \(statusCode.map(String.init) ?? "an error")"
        case .unreachable: "The feed cannot be read"
        }
    }
}
