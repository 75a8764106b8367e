public import Foundation

/// One HTTP request as ``HTTPDaemon`` hands it to its ``HTTPResponding``: the target exactly as sent (nothing
/// percent-decoded: a signature covers these bytes), and the few request headers the server reads.
public struct ServerRequest: Sendable {
    /// The method, as sent (`GET`, `HEAD`, …).
    public var method: String
    /// The request target as sent: the path and, after `?`, the query; nothing decoded.
    public var target: String
    /// Request headers the server reads, by lowercased name (`accept`, `if-none-match`, `if-modified-since`).
    public var headers: [String: String]
    /// The client's numeric address, or `-` when unknown.
    public var clientAddress: String
    /// When the request's head had been read (for the access log's duration).
    public var receivedAt: ContinuousClock.Instant

    public init(
        method: String, target: String, headers: [String: String] = [:], clientAddress: String = "-",
        receivedAt: ContinuousClock.Instant = .now
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.clientAddress = clientAddress
        self.receivedAt = receivedAt
    }

    /// The target's path: everything before the first `?`.
    public var path: Substring { target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0] }

    /// The header names ``HTTPDaemon`` copies into ``headers``.
    static let readHeaderNames = ["accept", "if-none-match", "if-modified-since", "user-agent"]
}

/// What the server answers: a status, headers, a body (empty for `HEAD` and 304; libmicrohttpd omits the body of
/// a `HEAD` itself).
public struct ServerResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Response headers in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: Data
    /// Why the request failed (a ``Pinhole/PinholeError`` code such as `not_an_image`), for logs and metrics only;
    /// `nil` for a success.
    public var errorCode: String?
    /// What answered: `memory`, `disk`, `network`, `coalesced`, … (for the access log), or `nil`.
    public var servedFrom: String?
    /// The failure's own message, for the access log only (never sent).
    public var errorDetail: String?

    public init(
        status: Int, headers: [(name: String, value: String)] = [], body: Data = Data(), errorCode: String? = nil,
        servedFrom: String? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.errorCode = errorCode
        self.servedFrom = servedFrom
    }

    /// The first value of header `name` (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Answers the requests an ``HTTPDaemon`` receives.
public protocol HTTPResponding: Sendable {
    /// An answer that needs no waiting (a cached result, a refusal), or `nil` to be asked ``response(to:)``.
    /// Called on one of the daemon's polling threads: must not block or take long.
    func immediateResponse(to request: ServerRequest) -> ServerResponse?
    /// The answer to `request`, computed in a task while the connection is suspended (no thread waits).
    func response(to request: ServerRequest) async -> ServerResponse
    /// Called once per request when it is done: `response` is what was sent, or `nil` when the client went away
    /// or libmicrohttpd answered by itself (a head too large: then `request` has an empty method and no
    /// headers); `completedNormally` is libmicrohttpd's verdict.
    func completed(_ request: ServerRequest, response: ServerResponse?, completedNormally: Bool)
}
