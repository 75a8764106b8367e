/// The bookkeeping of a ``WorkQueue``: how many items run, and who waits in which order.
///
/// A pure value with no I/O, so its ordering rules are tested directly: waiters are served highest
/// priority first, first come first served within a priority; a change of priority moves a waiter to the
/// back of its new level; at most ``limit`` items run at once, and at most ``groupLimit`` of one group (a host):
/// a waiter whose group is full is passed over, so one group's stalled items never hold every slot.
///
/// Invariant (after every call): while fewer than ``limit`` run, every waiter's group is full.
struct WorkQueueStateMachine: Sendable {
    typealias Priority = ImageRequest.Priority

    /// What ``acquire(_:priority:group:)`` decided.
    enum AcquireAction: Equatable {
        /// A slot was free and is now the caller's.
        case run
        /// The caller waits until ``release(group:)`` hands it a slot.
        case wait
    }

    let limit: Int
    /// The most items of one group that run at once; `Int.max` when groups are not limited.
    let groupLimit: Int
    private(set) var running = 0
    private var runningByGroup: [String: Int] = [:]
    /// One FIFO a priority level, indexed by `Priority.rawValue`.
    private var levels: [[UInt64]] = Array(repeating: [], count: Priority.allCases.count)
    private var levelOf: [UInt64: Int] = [:]
    /// The group of each waiter that has one.
    private var groupOf: [UInt64: String] = [:]

    init(limit: Int, groupLimit: Int? = nil) {
        precondition(limit >= 1, "a work queue needs a limit of at least 1")
        self.limit = limit
        self.groupLimit = max(1, groupLimit ?? Int.max)
    }

    /// Whether ``acquire(_:priority:group:)`` would run at once: a slot is free, the group has room, and nobody who
    /// could run waits (by the invariant, nobody could once a slot is free).
    func hasFreeSlot(group: String? = nil) -> Bool {
        running < limit && hasRoom(group) && (groupLimit == Int.max ? levelOf.isEmpty : true)
    }

    /// Number of waiters.
    var waitingCount: Int { levelOf.count }

    /// Items of `group` running now.
    func runningCount(group: String) -> Int { runningByGroup[group, default: 0] }

    private func hasRoom(_ group: String?) -> Bool {
        guard let group else { return true }
        return runningByGroup[group, default: 0] < groupLimit
    }

    /// A caller asks for a slot; `group` (a host) counts against ``groupLimit``, `nil` against nothing.
    mutating func acquire(_ id: UInt64, priority: Priority, group: String? = nil) -> AcquireAction {
        if hasFreeSlot(group: group) {
            running += 1
            if let group { runningByGroup[group, default: 0] += 1 }
            return .run
        }
        levels[priority.rawValue].append(id)
        levelOf[id] = priority.rawValue
        if let group { groupOf[id] = group }
        return .wait
    }

    /// A running item of `group` is done: returns the waiter that now gets its slot, if any (the first in service
    /// order whose group has room).
    mutating func release(group: String? = nil) -> UInt64? {
        precondition(running > 0, "Internal inconsistency: release() without a running item")
        if let group {
            let count = runningByGroup[group, default: 0] - 1
            runningByGroup[group] = count > 0 ? count : nil
        }
        for level in levels.indices.reversed() {
            guard let index = levels[level].firstIndex(where: { hasRoom(groupOf[$0]) }) else { continue }
            let id = levels[level].remove(at: index)
            levelOf[id] = nil
            if let next = groupOf.removeValue(forKey: id) { runningByGroup[next, default: 0] += 1 }
            return id
        }
        running -= 1
        return nil
    }

    /// A waiter gave up. Returns `true` when it was waiting (the caller must resume it with an error).
    mutating func cancel(_ id: UInt64) -> Bool {
        guard let level = levelOf.removeValue(forKey: id) else { return false }
        groupOf[id] = nil
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
