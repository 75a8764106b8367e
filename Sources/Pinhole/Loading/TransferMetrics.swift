/// What a loader measured of one transfer: the time of each phase, the bytes, the redirects
/// (``DataResponse/metrics``).
///
/// Phases are consecutive, each measured from the end of the one before (libcurl's timings, made relative): name
/// lookup, connect, TLS handshake, waiting for the first byte of the response, then receiving the rest. A phase
/// that did not happen is `nil`, not zero: no TLS over plain `http`, no connect on a reused connection, no name
/// lookup for a file. After redirects each phase is summed over the hops (a redirect to the same origin reuses
/// the first hop's connection); ``total`` covers the whole chain.
/// Durations are `Duration`s (microsecond resolution from libcurl).
public struct TransferMetrics: Sendable, Hashable {
    /// Resolving the host name (DNS, or libcurl's cache); `nil` when none was needed.
    public var nameLookup: Duration?
    /// Opening the TCP connection, after the name lookup; `nil` when an open connection was reused.
    public var connect: Duration?
    /// The TLS handshake, after the connect; `nil` for plain `http` and reused connections.
    public var secureConnect: Duration?
    /// From the connection being ready (and the request sent) to the first byte of the response: the server's
    /// time plus a round trip.
    public var firstByte: Duration?
    /// From the first byte of the response to the last.
    public var download: Duration?
    /// The whole transfer, redirects included.
    public var total: Duration?
    /// Redirects followed before the response (0 when none).
    public var redirectCount: Int
    /// Body bytes received for the response (the last hop's; of a content-encoded body, as libcurl counts them).
    public var bytesReceived: Int
    /// Bytes of response headers received, over every hop; `nil` when the loader has no headers (files).
    public var headerBytesReceived: Int?
    /// Bytes of requests sent (headers and body), over every hop; `nil` when nothing was sent (files).
    public var bytesSent: Int?

    public init(
        nameLookup: Duration? = nil, connect: Duration? = nil, secureConnect: Duration? = nil,
        firstByte: Duration? = nil, download: Duration? = nil, total: Duration? = nil, redirectCount: Int = 0,
        bytesReceived: Int, headerBytesReceived: Int? = nil, bytesSent: Int? = nil
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.secureConnect = secureConnect
        self.firstByte = firstByte
        self.download = download
        self.total = total
        self.redirectCount = redirectCount
        self.bytesReceived = bytesReceived
        self.headerBytesReceived = headerBytesReceived
        self.bytesSent = bytesSent
    }
}
