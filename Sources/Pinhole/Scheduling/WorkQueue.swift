import PinholeShared
import Synchronization

/// A priority-ordered queue with a concurrency limit: at most `limit` bodies run at once, the rest wait
/// (suspended, holding no thread) and start highest priority first.
///
/// The pipeline keeps two: one for network work (8 by default, 6 of one host) and one for CPU work (the core
/// count). Work may name a group (its host): at most `groupLimit` of one group run at once, and waiters of a full
/// group are passed over, so a host that stalls cannot hold every slot.
/// A waiter's priority can change while it waits (``updatePriority(_:from:)``), which re-orders the queue.
/// A task cancelled while waiting leaves at once with `CancellationError`.
///
/// Thread-safe; the state lives in a `Locked` and continuations are resumed outside it.
final class WorkQueue: Sendable {
    typealias Priority = ImageRequest.Priority

    private struct State {
        var machine: WorkQueueStateMachine
        var continuations: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    }

    private let state: Locked<State>
    /// The most bodies that run at once.
    let limit: Int

    /// - Parameter groupLimit: the most bodies of one group that run at once; `nil` (the default) for no limit.
    init(limit: Int, groupLimit: Int? = nil) {
        self.limit = max(1, limit)
        self.state = Locked(State(machine: WorkQueueStateMachine(limit: max(1, limit), groupLimit: groupLimit)))
    }

    /// Bodies of `group` running now.
    func runningCount(group: String) -> Int { state.withLock { $0.machine.runningCount(group: group) } }

    /// Bodies running now.
    var runningCount: Int { state.withLock { $0.machine.running } }
    /// Callers waiting for a slot now.
    var waitingCount: Int { state.withLock { $0.machine.waitingCount } }
    /// The priorities of the waiters, in the order they would be served (for tests and diagnostics).
    var waitingPriorities: [Priority] { state.withLock { $0.machine.servicePriorities } }

    /// Waits for a slot, runs `body`, and frees the slot.
    ///
    /// - Parameters:
    ///   - token: identifies this waiter for ``updatePriority(_:from:)``; unique per call.
    ///   - priority: where it queues; read under the lock when the caller enqueues.
    ///   - group: counts against the queue's group limit (a host); `nil` (the default) against none.
    /// - Throws: `CancellationError` if cancelled while waiting; otherwise what `body` throws.
    func run<T: Sendable>(
        token: UInt64,
        priority: @Sendable () -> Priority,
        group: String? = nil,
        _ body: () async throws -> T
    ) async throws -> T {
        try await acquire(token: token, priority: priority, group: group)
        defer { release(group: group) }
        return try await body()
    }

    /// Waits for a slot. `priority` is read under the queue's lock, so a concurrent
    /// ``updatePriority(_:from:)`` is never lost.
    func acquire(token: UInt64, priority: @Sendable () -> Priority, group: String? = nil) async throws {
        try Task.checkCancellation()
        // Fast path: a free slot is taken without suspending (a suspension costs a trip through the executor).
        let acquired = state.withLock { state in
            state.machine.hasFreeSlot(group: group)
                && state.machine.acquire(token, priority: priority(), group: group) == .run
        }
        if acquired { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = state.withLock { state in
                    // The cancellation handler may have run before this: it sets the flag first.
                    if Task.isCancelled {
                        return .failure(CancellationError())
                    }
                    switch state.machine.acquire(token, priority: priority(), group: group) {
                    case .run:
                        return .success(())
                    case .wait:
                        state.continuations[token] = continuation
                        return nil
                    }
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, any Error>? = state.withLock { state in
                if state.machine.cancel(token) { return state.continuations.removeValue(forKey: token) }
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    func release(group: String? = nil) {
        let next: CheckedContinuation<Void, any Error>? = state.withLock { state in
            guard let id = state.machine.release(group: group) else { return nil }
            return state.continuations.removeValue(forKey: id)
        }
        next?.resume()
    }

    /// Re-queues a waiting token at its priority now; no effect once it runs.
    ///
    /// - Parameter priority: read under the queue's lock, so that whatever order two quick updates arrive in, the
    ///   waiter ends at the latest priority (the caller changes its source of truth first, then calls this).
    func updatePriority(_ token: UInt64, from priority: () -> Priority) {
        state.withLock { $0.machine.setPriority(token, to: priority()) }
    }
}
