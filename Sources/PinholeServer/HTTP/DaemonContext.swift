import Foundation
import PinholeShared

/// What an ``HTTPDaemon``'s callbacks share: the responder, and the counts that let ``HTTPDaemon/stop(grace:)``
/// wait.
final class DaemonContext: Sendable {
    let responder: any HTTPResponding
    /// Requests whose target was read and that have not completed (answer sent, or client gone).
    let open = CountGate()
    /// Requests suspended while their answer is computed.
    let suspended = CountGate()
    /// Set by ``HTTPDaemon/stop(grace:)``: no connection may be suspended from then on (libmicrohttpd aborts the
    /// process when it is stopped with one suspended). Suspensions are counted under this lock, so none slips in
    /// between the flag and the wait.
    private let stopping = Locked(false)
    /// Connections open per client address (numeric, as libmicrohttpd reports it).
    private let connectionsByAddress = Locked([String: Int]())
    /// Connections from one address beyond this many are answered 503
    /// (``HTTPDaemon/Settings/connectionLimitPerAddress``; 0: no limit).
    let answeredLimitPerAddress: Int

    init(responder: any HTTPResponding, answeredLimitPerAddress: Int = 0) {
        self.responder = responder
        self.answeredLimitPerAddress = answeredLimitPerAddress
    }

    /// A connection from `address` opened: counts it, and says whether it is beyond the answered limit (its
    /// requests then get 503 and the connection is closed).
    func connectionOpened(from address: String) -> Bool {
        let count = connectionsByAddress.withLock { counts -> Int in
            counts[address, default: 0] += 1
            return counts[address, default: 0]
        }
        return answeredLimitPerAddress > 0 && count > answeredLimitPerAddress
    }

    /// Connections open from `address` now.
    func connectionCount(from address: String) -> Int { connectionsByAddress.withLock { $0[address, default: 0] } }

    /// A connection from `address` closed.
    func connectionClosed(from address: String) {
        connectionsByAddress.withLock { counts in
            let left = counts[address, default: 1] - 1
            counts[address] = left > 0 ? left : nil
        }
    }

    /// Before a connection is suspended: counts it, or gives `false` once the daemon is stopping (then it must
    /// not be suspended).
    func suspending() -> Bool {
        stopping.withLock { stopping in
            guard !stopping else { return false }
            suspended.increment()
            return true
        }
    }

    /// Refuses suspensions from now on: a request that would be suspended is answered 503 at once.
    func refuseSuspensions() { stopping.withLock { $0 = true } }

    /// Whether ``refuseSuspensions()`` was called.
    var refusesSuspensions: Bool { stopping.withLock { $0 } }

    /// Refuses suspensions from now on, then waits until none is left.
    func stopSuspending() async {
        refuseSuspensions()
        await suspended.waitUntilZero()
    }
}

/// One connection between libmicrohttpd's "started" and "closed" notices: where it comes from, and whether it was
/// opened beyond its address's answered limit.
final class ConnectionContext: Sendable {
    let address: String
    let isOverLimit: Bool

    init(address: String, isOverLimit: Bool) {
        self.address = address
        self.isOverLimit = isOverLimit
    }
}

/// One request between its target (``HTTPDaemon`` opens it) and its completion (it is released).
final class RequestContext: Sendable {
    enum Phase {
        /// The head is being read; the handler has not run.
        case reading
        /// The head has been read (the handler's first call); the body, if any, is being swallowed.
        case headersRead
        /// Suspended while the responder computes the answer.
        case waiting
        /// An answer was queued.
        case answered
    }

    struct State {
        var phase = Phase.reading
        var request: ServerRequest
        /// The responder's answer, set before the connection is resumed.
        var pending: ServerResponse?
        /// What was queued.
        var sent: ServerResponse?
    }

    let state: Locked<State>

    init(target: String) {
        state = Locked(State(request: ServerRequest(method: "", target: target)))
    }
}
