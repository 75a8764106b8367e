import Foundation
import PinholeShared

extension WorkerThreadPool {
    /// The pool for host-name lookups of untrusted sources: 4 threads of their own, so slow or hostile DNS
    /// (`getaddrinfo` cannot be interrupted) never holds the threads file reads and the disk cache use.
    public static let hostResolution = WorkerThreadPool(threadCount: 4, name: "pinhole-dns")

    /// Runs `body` on one of the pool's threads; a caller cancelled at any moment, queued or running, leaves at
    /// once with `CancellationError`. A queued `body` then never runs; one already running goes on to its end on
    /// its thread and its result is dropped: for blocking calls that cannot be interrupted (DNS).
    ///
    /// - Throws: what `body` throws, or `CancellationError` once the task is cancelled.
    public func runAbandoningOnCancel<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await runAbandoningOnCancel(body, afterStartingWork: nil)
    }

    /// ``runAbandoningOnCancel(_:)`` with `afterStartingWork` called on the caller's thread just after the work
    /// has started (tests use it to let the body finish first).
    func runAbandoningOnCancel<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T, afterStartingWork: (@Sendable () -> Void)?
    ) async throws -> T {
        try Task.checkCancellation()
        // Whoever takes the continuation first resumes it: the pool's answer, or the caller's cancellation.
        let state = Locked<(waiter: CheckedContinuation<T, any Error>?, work: Task<Void, Never>?, left: Bool)>(
            (nil, nil, false))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                // The waiter is in place before the work starts: an instant body must find it when it ends.
                let leftAlready = state.withLock { state in
                    if !state.left { state.waiter = continuation }
                    return state.left
                }
                if leftAlready {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let work = Task {
                    let result: Result<T, any Error>
                    do { result = .success(try await self.run(body)) } catch { result = .failure(error) }
                    state.withLock { state in
                        defer { state.waiter = nil }
                        return state.waiter
                    }?.resume(with: result)
                }
                afterStartingWork?()
                let leftMeanwhile = state.withLock { state in
                    if !state.left { state.work = work }
                    return state.left
                }
                if leftMeanwhile { work.cancel() }
            }
        } onCancel: {
            let (waiter, work) = state.withLock { state in
                defer { (state.waiter, state.work, state.left) = (nil, nil, true) }
                return (state.waiter, state.work)
            }
            work?.cancel()
            waiter?.resume(throwing: CancellationError())
        }
    }
}
