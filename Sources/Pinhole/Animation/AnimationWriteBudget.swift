import PinholeShared

/// Pixels of animation frames held at once, across every task that writes animations out (the CLI's `--animated`
/// jobs, a server's animated answers): each reserves its frames' pixels (``AnimatedImage/frameCount`` ×
/// ``AnimatedImage/frameSize``) before decoding them and gives them back after encoding, so N jobs hold at most
/// ``capacity`` pixels together instead of N animations' worth. Waiters are served first come, first served.
///
/// Thread-safe (a lock held for O(waiters) work). A waiter whose task is cancelled stops waiting at once.
public final class AnimationWriteBudget: Sendable {
    private struct Waiter {
        let id: Int
        let pixels: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var inUse = 0
        var nextID = 0
        var waiters: [Waiter] = []
    }

    /// The most pixels reserved at once: by default ``AnimatedImage/defaultMaxAllFramesPixelCount``, the most one
    /// animation may hold, so one animation is written at a time when it is that large and several when small.
    public let capacity: Int
    private let state = Locked(State())

    public init(capacity: Int = AnimatedImage.defaultMaxAllFramesPixelCount) { self.capacity = max(1, capacity) }

    /// Pixels reserved now.
    public var reservedPixels: Int { state.withLock { $0.inUse } }

    /// Runs `body` once `pixels` (at most ``capacity``) are reserved, and gives them back when it returns or throws.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled while waiting; `body`'s errors.
    public func withReservation<T: Sendable>(pixels: Int, _ body: () async throws -> T) async throws -> T {
        let amount = min(capacity, max(0, pixels))
        try await reserve(amount)
        defer { release(amount) }
        return try await body()
    }

    private func reserve(_ pixels: Int) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let granted = state.withLock { state -> Bool in
                    if state.waiters.isEmpty, state.inUse + pixels <= capacity {
                        state.inUse += pixels
                        return true
                    }
                    state.waiters.append(Waiter(id: id, pixels: pixels, continuation: continuation))
                    return false
                }
                if granted { continuation.resume() }
                if Task.isCancelled { cancelWaiter(id) }
            }
        } onCancel: {
            cancelWaiter(id)
        }
    }

    private func cancelWaiter(_ id: Int) {
        let (removed, ready) = state.withLock { state -> (Waiter?, [Waiter]) in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return (nil, []) }
            let removed = state.waiters.remove(at: index)
            return (removed, Self.admitWaiters(&state, capacity: capacity))
        }
        removed?.continuation.resume(throwing: CancellationError())
        for waiter in ready { waiter.continuation.resume() }
    }

    private func release(_ pixels: Int) {
        let ready = state.withLock { state -> [Waiter] in
            state.inUse -= pixels
            return Self.admitWaiters(&state, capacity: capacity)
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Takes the waiters from the head of the queue while they fit.
    private static func admitWaiters(_ state: inout State, capacity: Int) -> [Waiter] {
        var ready: [Waiter] = []
        while let first = state.waiters.first, state.inUse + first.pixels <= capacity {
            state.inUse += first.pixels
            ready.append(state.waiters.removeFirst())
        }
        return ready
    }
}
