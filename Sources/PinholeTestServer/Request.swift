/// One HTTP request as the ``PinholeTestServer`` received it (the request head; any body is discarded).
public struct Request: Sendable, Equatable {
    /// The method token as sent, e.g. `GET` or `HEAD` (case-sensitive, as HTTP defines it).
    public let method: String
    /// The path of the request target without the query, e.g. `/img/17` for `/img/17?v=3`.
    public let path: String
    /// The query without the leading `?` (`v=3`), or `nil` when the target has no `?`.
    public let query: String?
    /// Header fields by lowercased name (`if-none-match`); repeated fields are joined with `", "`.
    public let headers: [String: String]

    /// Creates a request value (the server creates these; handy for testing a handler directly).
    public init(method: String, path: String, query: String? = nil, headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The request target as sent: the path plus `?query` when there is a query.
    public var target: String {
        guard let query else { return path }
        return path + "?" + query
    }
}
