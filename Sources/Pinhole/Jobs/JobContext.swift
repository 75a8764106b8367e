import PinholeShared
import Synchronization

/// What a coalesced job's work sees of its callers: the job's current priority (the highest of its
/// subscribers') and a way to follow changes, so that queued work can be re-ordered while it waits.
///
/// Ordering: the priority is set only by the registry, under the registry's lock, in the same critical section
/// that decided it, so it always holds the latest decision. Observers are told *that* it changed, never *to what*:
/// each reads ``priority`` again under its own lock (a queue, a nested registry). Notifications may run late or
/// out of order, but the last one to run always reads the latest value, so a quick succession of changes can
/// never leave queued work at an older priority.
final class JobContext: Sendable {
    typealias Priority = ImageRequest.Priority

    private struct State {
        var priority: Priority
        var observers: [@Sendable () -> Void] = []
        /// Set by ``endObserving()``: observers that come later are dropped at once.
        var ended = false
    }

    /// Unique within its registry.
    let id: UInt64
    private let state: Locked<State>
    /// The job's stage times (JobMetrics.swift); `nil` when the pipeline does not collect task metrics.
    let metrics: Locked<JobMetrics>?

    init(id: UInt64, priority: Priority, collectsMetrics: Bool = false) {
        self.id = id
        self.state = Locked(State(priority: priority))
        self.metrics = collectsMetrics ? Locked(JobMetrics()) : nil
    }

    /// The job's priority now.
    var priority: Priority { state.withLock { $0.priority } }

    /// Calls `observer` after every later change of priority (outside any lock, on the changing thread); the
    /// observer reads ``priority`` itself. After ``endObserving()`` (a cancelled job's work may still be on its way
    /// to a queue) the observer is dropped at once.
    func observePriority(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { state in
            if !state.ended { state.observers.append(observer) }
        }
    }

    /// Sets the priority. Call it only under the lock of the registry that decided the change (a leaf lock is
    /// taken inside), then ``notifyObservers()`` after that lock is released.
    func set(_ priority: Priority) {
        state.withLock { $0.priority = priority }
    }

    /// Tells the observers that the priority changed; call it outside any lock.
    func notifyObservers() {
        for observer in state.withLock({ $0.observers }) { observer() }
    }

    /// Drops every observer: the job has ended (finished, or cancelled by its last caller). Observers usually
    /// capture this context (they read ``priority``), so without this each job's context, its observers and
    /// what they hold would keep one another alive for ever (LeakSanitizer saw it: every job of a `pinhole
    /// thumbnail` run leaked).
    func endObserving() {
        state.withLock { state in
            state.ended = true
            state.observers.removeAll()
        }
    }
}
