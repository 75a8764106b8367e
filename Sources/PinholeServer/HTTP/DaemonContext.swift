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

    init(responder: any HTTPResponding) {
        self.responder = responder
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

    /// Refuses suspensions from now on, then waits until none is left.
    func stopSuspending() async {
        stopping.withLock { $0 = true }
        await suspended.waitUntilZero()
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
