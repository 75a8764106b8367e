extension AnimationTicker {
    /// Runs the ticker's own loop: one task on the main actor that ticks, then sleeps until ``nextDeadline``
    /// (or, with no slot animating, until one starts). No effect when it runs already; for hosts without a frame
    /// loop of their own (a host that calls ``tick(at:)`` itself needs none).
    public func start() {
        guard loop == nil else { return }
        loop = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                self.tick(at: .now)
                if let deadline = self.nextDeadline {
                    if deadline > .now { try? await self.sleep(until: deadline) }
                } else {
                    await self.waitForWork()
                }
            }
        }
    }

    /// Stops the own loop (``start()``); the slots keep their frames, and ``tick(at:)`` still works.
    public func stop() {
        loop?.cancel()
        loop = nil
        wakeLoop()
    }

    /// Sleeps until `deadline`, or until a slot starts or a frame arrives.
    private func sleep(until deadline: ContinuousClock.Instant) async throws {
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            self?.wakeLoop()
        }
        await waitForWork()
        timer.cancel()
    }

    /// Waits for ``wakeLoop()``.
    private func waitForWork() async {
        guard !Task.isCancelled else { return }
        await withCheckedContinuation { continuation in
            wake?.resume()
            wake = continuation
        }
    }

    /// Resumes the own loop's wait, if it waits.
    func wakeLoop() {
        let waiting = wake
        wake = nil
        waiting?.resume()
    }
}
