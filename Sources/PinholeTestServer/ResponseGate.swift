import PinholeShared

/// A barrier a test opens when it is ready: every request to a ``Route`` that carries it waits, after the
/// route's ``Route/latency``, until ``open()`` is called, however long that takes.
///
/// A latency bets on how fast a loaded machine reaches the moment the test needs (several requests in flight
/// at once, a drain begun); a gate does not. While waiting, the server watches the socket as during a latency:
/// a client that closes is counted aborted, and ``PinholeTestServer/stop()`` ends the wait. Opening is final.
/// Safe from any thread.
public final class ResponseGate: Sendable {
    private let opened = Locked(false)

    /// A closed gate.
    public init() {}

    /// Lets every waiting and later request through.
    public func open() {
        opened.withLock { $0 = true }
    }

    /// Whether ``open()`` was called.
    public var isOpen: Bool {
        opened.withLock { $0 }
    }
}
