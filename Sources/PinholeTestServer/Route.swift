public import Foundation

/// What the ``PinholeTestServer`` answers for a path: status, headers, body, and injected latency or faults.
///
/// The server adds `Content-Length` (the full ``body`` size, also for `HEAD` and for the faulty behaviors),
/// `ETag` when ``etag`` is set, and `Connection: close` when it will close the connection. A `content-length`
/// given in ``headers`` is ignored.
public struct Route: Sendable {
    /// The status code; 200 by default. 1xx, 204 and 304 responses carry no body.
    public var status: Int = 200
    /// Extra response header fields, e.g. `content-type`, `cache-control`, `last-modified`.
    public var headers: [String: String] = [:]
    /// The response body (bytes). Not sent for `HEAD`, 304, 204 and 1xx.
    public var body: Data = Data()
    /// Waited before the status line is sent; a client that closes meanwhile is counted aborted at once and
    /// gets nothing. `.zero` by default.
    public var latency: Duration = .zero
    /// When set, each request waits after ``latency`` until the test opens this gate; `nil` by default.
    public var gate: ResponseGate?
    /// The entity tag sent in `ETag` (quoted by the server unless it already starts with `"` or `W/`). A request
    /// whose `If-None-Match` matches it (weak comparison, or `*`) gets `304 Not Modified` with an empty body.
    public var etag: String?
    /// How the response is delivered; ``Behavior/normal`` by default.
    public var behavior: Behavior = .normal
    /// `false` sends no `Content-Length`: the body ends when the server closes the connection (a client cannot
    /// know its size in advance). `true` by default.
    public var declaresLength = true

    /// Fault injection: how the body reaches the client. Byte counts are body bytes, after the head.
    public enum Behavior: Sendable, Equatable {
        /// The full response; the connection stays open for the next request unless someone asked to close.
        case normal
        /// `Content-Length` announces the full size; the server sends `afterBytes` body bytes, then closes (FIN).
        case truncate(afterBytes: Int)
        /// Sends `afterBytes` body bytes, then holds the connection silently until the client closes it
        /// (counted aborted) or ``PinholeTestServer/stop()``.
        case stall(afterBytes: Int)
        /// Sends `bytes` body bytes, waits `every`, sends the next `bytes`, … until the body is done.
        case trickle(bytes: Int, every: Duration)
        /// Sends `afterBytes` body bytes, then resets the connection (RST, via `SO_LINGER` 0 and close).
        case reset(afterBytes: Int)
        /// Reads the request and never answers, until the client closes (counted aborted) or
        /// ``PinholeTestServer/stop()``.
        case neverRespond
    }

    /// Creates a route; every parameter has the default documented on its property.
    public init(
        status: Int = 200, headers: [String: String] = [:], body: Data = Data(),
        latency: Duration = .zero, gate: ResponseGate? = nil, etag: String? = nil, behavior: Behavior = .normal
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.latency = latency
        self.gate = gate
        self.etag = etag
        self.behavior = behavior
    }

    /// A 200 response with image bytes and their media type (`image/jpeg` by default).
    public static func image(
        _ data: Data, contentType: String = "image/jpeg", latency: Duration = .zero, gate: ResponseGate? = nil
    ) -> Route {
        Route(headers: ["content-type": contentType], body: data, latency: latency, gate: gate)
    }

    /// A redirect (302 by default; 301, 303, 307 and 308 work too) to `location`, a path or an absolute URL.
    public static func redirect(to location: String, status: Int = 302) -> Route {
        Route(status: status, headers: ["location": location])
    }

    /// An HTML page (`text/html; charset=utf-8`), 200 by default.
    public static func html(_ text: String, status: Int = 200) -> Route {
        Route(status: status, headers: ["content-type": "text/html; charset=utf-8"], body: Data(text.utf8))
    }
}
