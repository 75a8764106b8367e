import Synchronization

/// What a coalesced job's work sees of its callers: the job's current priority (the highest of its
/// subscribers') and a way to follow changes, so that queued work can be re-ordered while it waits.
final class JobContext: Sendable {
    typealias Priority = ImageRequest.Priority

    private struct State {
        var priority: Priority
        var observers: [@Sendable (Priority) -> Void] = []
    }

    /// Unique within its registry.
    let id: UInt64
    private let state: Locked<State>

    init(id: UInt64, priority: Priority) {
        self.id = id
        self.state = Locked(State(priority: priority))
    }

    /// The job's priority now.
    var priority: Priority { state.withLock { $0.priority } }

    /// Calls `observer` on every later change of priority (outside any lock, on the changing thread).
    func observePriority(_ observer: @escaping @Sendable (Priority) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Sets the priority and tells the observers.
    func update(_ priority: Priority) {
        let observers: [@Sendable (Priority) -> Void] = state.withLock { state in
            guard state.priority != priority else { return [] }
            state.priority = priority
            return state.observers
        }
        for observer in observers { observer(priority) }
    }
}

/// Unique identifiers for subscribers and queue tokens, process-wide.
enum UniqueID {
    private static let counter = Atomic<UInt64>(1)

    static func next() -> UInt64 { counter.wrappingAdd(1, ordering: .relaxed).oldValue }
}
