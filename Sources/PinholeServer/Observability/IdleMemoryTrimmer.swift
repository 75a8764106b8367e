import Dispatch
import PinholeShared

/// Gives freed memory back to the system once the server has been idle for ``delay``: glibc keeps what a burst
/// of decodes freed in its arenas, so without a trim the resident size after a burst stays at its peak.
///
/// ``workEnded(isIdle:)`` is called as each answer is made; a trim is scheduled when the server is idle, and runs
/// only if it still is then (a burst that goes on postpones it). At most one is scheduled at a time. Trims run on
/// a queue of their own, never on Swift's cooperative pool. Thread-safe.
final class IdleMemoryTrimmer: Sendable {
    /// How long the server must be idle before a trim.
    let delay: Duration
    private let trim: @Sendable () -> Void
    private let queue = DispatchQueue(label: "pinhole.serve.memory-trim", qos: .utility)
    private let state = Locked(State())

    private struct State {
        var scheduled = false
        var trims = 0
    }

    /// - Parameters:
    ///   - delay: idle time before a trim; 1 s by default.
    ///   - trim: what a trim does (`MallocTuning.releaseFreeMemory()` in the server).
    init(delay: Duration = .seconds(1), trim: @escaping @Sendable () -> Void) {
        self.delay = delay
        self.trim = trim
    }

    /// Trims done.
    var trimCount: Int { state.withLock { $0.trims } }

    /// An answer was made; `isIdle` says whether the server is idle now, and is asked again when the trim is due.
    func workEnded(isIdle: @escaping @Sendable () -> Bool) {
        guard isIdle() else { return }
        let schedule = state.withLock { state -> Bool in
            guard !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        guard schedule else { return }
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in
            state.withLock { $0.scheduled = false }
            guard isIdle() else {
                // Busy again: the answer that ends this burst schedules the next trim.
                return
            }
            trim()
            state.withLock { $0.trims += 1 }
        }
    }
}
