import PinholeShared

/// One caller's wait for a coalesced job's result (``CoalescingRegistry``'s payload in its state machine).
///
/// Resumed once, by the job's completion or by the caller's leaving, before or after the caller starts to wait:
/// a result that comes first is kept for ``value()``. That lets a caller join a job without suspending
/// (``CoalescingRegistry/join(_:subscriber:priority:)``) and wait for it later.
final class CoalescingWaiter<Value: Sendable>: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<Value, any Error>)
        case done(Result<Value, any Error>)
    }

    private let state = Locked(State.pending)

    /// Hands over the result; the first call wins, later ones are ignored.
    func resume(with result: Result<Value, any Error>) {
        let continuation: CheckedContinuation<Value, any Error>? = state.withLock { state in
            switch state {
            case .pending:
                state = .done(result)
                return nil
            case .waiting(let continuation):
                state = .done(result)
                return continuation
            case .done:
                return nil
            }
        }
        continuation?.resume(with: result)
    }

    /// The result, at once when it has come; call it once.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let result: Result<Value, any Error>? = state.withLock { state in
                if case .done(let result) = state { return result }
                state = .waiting(continuation)
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
    }
}
