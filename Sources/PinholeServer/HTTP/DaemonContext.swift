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

    init(responder: any HTTPResponding) {
        self.responder = responder
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
