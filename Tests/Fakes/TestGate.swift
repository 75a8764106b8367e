import PinholeShared

/// The test suites' gate: tasks wait at it while it is closed; opening it lets every waiter through, and later
/// arrivals pass at once. A waiter cancelled while it waits leaves at once with `CancellationError`. Thread-safe.
public final class TestGate: Sendable {
    private struct State {
        var isOpen: Bool
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Locked<State>

    /// A gate, open (the default: tasks pass at once until ``close()``) or closed.
    public init(open: Bool = true) { state = Locked(State(isOpen: open)) }

    /// Tasks waiting now.
    public var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Makes later arrivals wait (tasks waiting now keep waiting).
    public func close() { state.withLock { $0.isOpen = false } }

    /// Lets every waiting task through, and later arrivals pass at once.
    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when the gate is open.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled before the gate opens.
    public func pass() async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let immediate: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.isOpen { return .success(()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }
}
