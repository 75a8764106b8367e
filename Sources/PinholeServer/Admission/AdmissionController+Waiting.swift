import PinholeShared

extension AdmissionController {
    /// What a wait is for.
    enum Claim: Sendable {
        /// One of ``Limits/activeLimit`` places.
        case place
        /// Bytes of ``Limits/memoryBudget``.
        case memory(Int)
    }

    struct Waiter {
        var id: UInt64
        var claim: Claim
        var continuation: CheckedContinuation<Void, any Error>
        /// Ends the wait at ``Limits/queueTimeout``; cancelled when the wait ends otherwise.
        var timer: Task<Void, Never>?
    }

    struct State {
        var active = 0
        var reserved = 0
        /// Arrivals in order; short (at most ``Limits/queueLimit``).
        var arrivals: [Waiter] = []
        /// Memory claims in order; at most one per running decode or encode.
        var memoryWaiters: [Waiter] = []
        var nextID: UInt64 = 1
        var rejections: [AdmissionError.Reason: Int] = [:]

        /// Grants `claim` now, refuses it, or queues it (`nil`).
        mutating func decide(_ claim: Claim, limits: Limits) -> Result<Void, any Error>? {
            switch claim {
            case .place:
                if active < limits.activeLimit, arrivals.isEmpty {
                    active += 1
                    return .success(())
                }
                if arrivals.count >= limits.queueLimit {
                    rejections[.queueFull, default: 0] += 1
                    return .failure(AdmissionError(reason: .queueFull))
                }
            case .memory(let bytes):
                if bytes > limits.memoryBudget {
                    rejections[.overBudget, default: 0] += 1
                    return .failure(AdmissionError(reason: .overBudget, bytes: bytes))
                }
                if memoryWaiters.isEmpty, reserved + bytes <= limits.memoryBudget {
                    reserved += bytes
                    return .success(())
                }
            }
            return nil
        }

        /// Takes the waiters, in order, that fit now; their claims are counted as held.
        mutating func takeGrantable(limits: Limits) -> [Waiter] {
            var granted: [Waiter] = []
            while let first = arrivals.first, active < limits.activeLimit {
                arrivals.removeFirst()
                active += 1
                granted.append(first)
            }
            while let first = memoryWaiters.first, case .memory(let bytes) = first.claim,
                reserved + bytes <= limits.memoryBudget
            {
                memoryWaiters.removeFirst()
                reserved += bytes
                granted.append(first)
            }
            return granted
        }

        /// Removes the waiter `id` from its queue.
        mutating func remove(_ id: UInt64) -> Waiter? {
            if let index = arrivals.firstIndex(where: { $0.id == id }) { return arrivals.remove(at: index) }
            if let index = memoryWaiters.firstIndex(where: { $0.id == id }) { return memoryWaiters.remove(at: index) }
            return nil
        }
    }

    /// Returns once `claim` is granted.
    func wait(for claim: Claim) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let decided = state.withLock { state -> Result<Void, any Error>? in
                    // Under the lock: a cancellation handler that ran before this finds nothing to remove.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let decided = state.decide(claim, limits: limits) { return decided }
                    let waiter = Waiter(id: id, claim: claim, continuation: continuation)
                    if case .place = claim { state.arrivals.append(waiter) } else { state.memoryWaiters.append(waiter) }
                    return nil
                }
                if let decided {
                    continuation.resume(with: decided)
                    return
                }
                startTimer(for: id)
            }
        } onCancel: {
            end(id, throwing: CancellationError())
        }
    }

    /// Gives `claim` back and wakes the waiters that fit now.
    func release(_ claim: Claim) {
        let granted = state.withLock { state in
            switch claim {
            case .place: state.active -= 1
            case .memory(let bytes): state.reserved -= bytes
            }
            return state.takeGrantable(limits: limits)
        }
        resume(granted)
    }

    private func startTimer(for id: UInt64) {
        let timeout = limits.queueTimeout
        let timer = Task { [self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            end(id, throwing: AdmissionError(reason: .queueTimeout))
        }
        let waiting = state.withLock { state in
            if let index = state.arrivals.firstIndex(where: { $0.id == id }) {
                state.arrivals[index].timer = timer
                return true
            }
            if let index = state.memoryWaiters.firstIndex(where: { $0.id == id }) {
                state.memoryWaiters[index].timer = timer
                return true
            }
            return false
        }
        if !waiting { timer.cancel() }
    }

    /// Ends the wait of `id`, if it still waits, with `error`; the waiters behind it may fit then.
    private func end(_ id: UInt64, throwing error: any Error) {
        let (ended, granted) = state.withLock { state -> (Waiter?, [Waiter]) in
            guard let waiter = state.remove(id) else { return (nil, []) }
            if let error = error as? AdmissionError { state.rejections[error.reason, default: 0] += 1 }
            return (waiter, state.takeGrantable(limits: limits))
        }
        if let ended {
            ended.timer?.cancel()
            ended.continuation.resume(throwing: error)
        }
        resume(granted)
    }

    private func resume(_ granted: [Waiter]) {
        for waiter in granted {
            waiter.timer?.cancel()
            waiter.continuation.resume()
        }
    }
}
