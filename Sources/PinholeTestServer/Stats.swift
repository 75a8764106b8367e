/// Counters of a ``PinholeTestServer`` since it started or since the last ``PinholeTestServer/resetStats()``.
///
/// A request that the server ends on purpose without a full response (``Route/Behavior/truncate(afterBytes:)``,
/// ``Route/Behavior/reset(afterBytes:)``, or a stall or never-answered request ended by
/// ``PinholeTestServer/stop()``) counts as started but neither completed nor aborted.
public struct Stats: Sendable, Equatable {
    /// Requests whose head was fully read and parsed (malformed heads answered 400/431 are not counted).
    public var requestsStarted: Int
    /// Requests whose full response (head and body) was handed to the kernel.
    public var requestsCompleted: Int
    /// Requests whose client closed or reset the connection before the full response was written, including
    /// during the latency, a stall, a trickle or a never-answered request.
    public var requestsAborted: Int
    /// `304 Not Modified` answers, counted when decided, before the head is written: a client that has read
    /// its 304 always finds it counted. ``requestsCompleted`` counts it too once it is written; a 304 whose
    /// client goes away while it is written counts here and in ``requestsAborted``.
    public var notModified: Int
    /// TCP connections accepted.
    public var connectionsAccepted: Int
    /// TCP connections open right now.
    public var openConnections: Int
    /// Bytes written to clients: status lines, headers and bodies.
    public var bytesSent: Int

    /// Creates a snapshot; all counters are 0 by default.
    public init(
        requestsStarted: Int = 0, requestsCompleted: Int = 0, requestsAborted: Int = 0, notModified: Int = 0,
        connectionsAccepted: Int = 0, openConnections: Int = 0, bytesSent: Int = 0
    ) {
        self.requestsStarted = requestsStarted
        self.requestsCompleted = requestsCompleted
        self.requestsAborted = requestsAborted
        self.notModified = notModified
        self.connectionsAccepted = connectionsAccepted
        self.openConnections = openConnections
        self.bytesSent = bytesSent
    }
}
