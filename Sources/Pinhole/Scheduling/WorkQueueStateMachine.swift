/// The bookkeeping of a ``WorkQueue``: how many items run, and who waits in which order.
///
/// A pure value with no I/O, so its ordering rules are tested directly: waiters are served highest
/// priority first, first come first served within a priority; a change of priority moves a waiter to the
/// back of its new level; at most ``limit`` items run at once.
struct WorkQueueStateMachine: Sendable {
    typealias Priority = ImageRequest.Priority

    /// What ``acquire(_:priority:)`` decided.
    enum AcquireAction: Equatable {
        /// A slot was free and is now the caller's.
        case run
        /// The caller waits until ``release()`` hands it a slot.
        case wait
    }

    let limit: Int
    private(set) var running = 0
    /// One FIFO a priority level, indexed by `Priority.rawValue`.
    private var levels: [[UInt64]] = Array(repeating: [], count: Priority.allCases.count)
    private var levelOf: [UInt64: Int] = [:]

    init(limit: Int) {
        precondition(limit >= 1, "a work queue needs a limit of at least 1")
        self.limit = limit
    }

    /// Whether ``acquire(_:priority:)`` would run at once (a slot is free and nobody waits).
    var hasFreeSlot: Bool { running < limit && levelOf.isEmpty }

    /// Number of waiters.
    var waitingCount: Int { levelOf.count }

    /// A caller asks for a slot.
    mutating func acquire(_ id: UInt64, priority: Priority) -> AcquireAction {
        if hasFreeSlot {
            running += 1
            return .run
        }
        levels[priority.rawValue].append(id)
        levelOf[id] = priority.rawValue
        return .wait
    }

    /// A running item is done: returns the waiter that now gets its slot, if any.
    mutating func release() -> UInt64? {
        precondition(running > 0, "Internal inconsistency: release() without a running item")
        for level in levels.indices.reversed() where !levels[level].isEmpty {
            let id = levels[level].removeFirst()
            levelOf[id] = nil
            return id
        }
        running -= 1
        return nil
    }

    /// A waiter gave up. Returns `true` when it was waiting (the caller must resume it with an error).
    mutating func cancel(_ id: UInt64) -> Bool {
        guard let level = levelOf.removeValue(forKey: id) else { return false }
        if let index = levels[level].firstIndex(of: id) { levels[level].remove(at: index) }
        return true
    }

    /// Moves a waiter to another priority level; no effect on items that already run.
    mutating func setPriority(_ id: UInt64, to priority: Priority) {
        guard let level = levelOf[id], level != priority.rawValue else { return }
        if let index = levels[level].firstIndex(of: id) { levels[level].remove(at: index) }
        levels[priority.rawValue].append(id)
        levelOf[id] = priority.rawValue
    }

    /// The waiters in the order they would be served (for tests and diagnostics).
    var serviceOrder: [UInt64] { levels.reversed().flatMap { $0 } }

    /// The priority of each waiter, in ``serviceOrder``.
    var servicePriorities: [Priority] {
        levels.indices.reversed().flatMap { level in
            Array(repeating: Priority(rawValue: level) ?? .normal, count: levels[level].count)
        }
    }
}
