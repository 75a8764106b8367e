package import Dispatch

/// A repeating timer on a dispatch queue, independent of Swift's cooperative pool (a `Task.sleep` loop
/// stalls when that pool is busy; a dispatch timer does not).
///
/// Start it with ``start()``; ``cancel()`` stops it for good. Both may be called from any thread.
package final class RepeatingTimer: @unchecked Sendable {
    // Invariant: after init, `source` is only used through `resume()` and `cancel()`, which libdispatch
    // documents as safe from any thread; the flags in `flags` make each of them happen at most once.
    private let source: any DispatchSourceTimer
    private let flags = Locked<(started: Bool, cancelled: Bool)>((false, false))

    /// - Parameters:
    ///   - interval: time between ticks.
    ///   - queue: where `handler` runs (`.main` for a frame loop on the main thread).
    ///   - leeway: how late a tick may fire; 1 ms by default.
    ///   - handler: called on every tick.
    package init(
        interval: Duration,
        queue: DispatchQueue,
        leeway: DispatchTimeInterval = .milliseconds(1),
        handler: @escaping @Sendable () -> Void
    ) {
        let nanoseconds = max(
            1, Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000))
        source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds), leeway: leeway)
        source.setEventHandler(handler: handler)
    }

    deinit {
        cancel()
    }

    /// Starts ticking; no effect after the first call or after ``cancel()``.
    package func start() {
        let shouldResume = flags.withLock { flags -> Bool in
            guard !flags.started && !flags.cancelled else { return false }
            flags.started = true
            return true
        }
        if shouldResume { source.resume() }
    }

    /// Stops for good; safe to call more than once.
    package func cancel() {
        let (shouldCancel, wasStarted) = flags.withLock { flags -> (Bool, Bool) in
            guard !flags.cancelled else { return (false, flags.started) }
            flags.cancelled = true
            return (true, flags.started)
        }
        guard shouldCancel else { return }
        source.cancel()
        // A suspended source must be resumed once after cancel, or libdispatch traps when it is released.
        if !wasStarted { source.resume() }
    }
}
