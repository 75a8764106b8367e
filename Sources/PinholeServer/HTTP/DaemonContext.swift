import Foundation
import Synchronization

/// What an ``HTTPDaemon``'s callbacks share: the responder, and the counts that let ``HTTPDaemon/stop()`` wait.
final class DaemonContext: Sendable {
    struct Counts {
        /// Requests whose target was read and that have not completed.
        var open = 0
        /// Requests suspended while their answer is computed.
        var suspended = 0
        /// Callers of ``waitUntilNoneSuspended()`` waiting for `suspended` to reach 0.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    let responder: any HTTPResponding
    let counts = Mutex(Counts())

    init(responder: any HTTPResponding) {
        self.responder = responder
    }

    func suspending() {
        counts.withLock { $0.suspended += 1 }
    }

    /// After a suspended connection was resumed.
    func resumed() {
        let waiters = counts.withLock { counts -> [CheckedContinuation<Void, Never>] in
            counts.suspended -= 1
            guard counts.suspended == 0 else { return [] }
            defer { counts.waiters = [] }
            return counts.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func waitUntilNoneSuspended() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = counts.withLock { counts -> Bool in
                if counts.suspended == 0 { return true }
                counts.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
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

    let state: Mutex<State>

    init(target: String) {
        state = Mutex(State(request: ServerRequest(method: "", target: target)))
    }
}
