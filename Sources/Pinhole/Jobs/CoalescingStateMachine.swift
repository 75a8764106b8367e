/// The bookkeeping of request coalescing: which jobs exist, who subscribes to each, at which priority.
///
/// Pure and generic over the subscriber's payload (a continuation in production, anything in tests), so the
/// rules are tested without I/O:
/// - the first subscriber of a key starts a job; later ones join it;
/// - a job's priority is the highest of its subscribers' and is reported whenever it changes;
/// - a subscriber that leaves is handed back (to be resumed with `CancellationError`); when the last one
///   leaves, the job is removed and must be cancelled;
/// - a job's completion hands back every subscriber, and only the job that is current for the key counts.
struct CoalescingStateMachine<Key: Hashable, Payload> {
    typealias Priority = ImageRequest.Priority

    struct Job {
        let id: UInt64
        var subscribers: [UInt64: (priority: Priority, payload: Payload)] = [:]
        var priority: Priority {
            subscribers.values.lazy.map(\.priority).max() ?? .veryLow
        }
    }

    enum SubscribeAction: Equatable {
        /// No job existed: start job `id` at `priority`.
        case start(jobID: UInt64, priority: Priority)
        /// Joined a running job; `newPriority` is set when the join raised the job's priority.
        case join(jobID: UInt64, newPriority: Priority?)
    }

    enum UnsubscribeAction {
        /// The subscriber was not there (already completed or left).
        case none
        /// The subscriber left; the job goes on, maybe at a lower priority.
        case left(Payload, jobID: UInt64, newPriority: Priority?)
        /// The last subscriber left: the job is removed and must be cancelled.
        case leftAndCancelJob(Payload, jobID: UInt64)
    }

    private(set) var jobs: [Key: Job] = [:]
    private var nextJobID: UInt64 = 1

    /// Adds `subscriber` to the job for `key`, starting one if none runs.
    mutating func subscribe(_ key: Key, subscriber: UInt64, priority: Priority, payload: Payload) -> SubscribeAction {
        if let joined = join(key, subscriber: subscriber, priority: priority, payload: payload) { return joined }
        let id = nextJobID
        nextJobID += 1
        var job = Job(id: id)
        job.subscribers[subscriber] = (priority, payload)
        jobs[key] = job
        return .start(jobID: id, priority: priority)
    }

    /// Adds `subscriber` to the job for `key` when one runs (always a ``SubscribeAction/join(jobID:newPriority:)``);
    /// `nil`, and nothing changes, when none does.
    mutating func join(_ key: Key, subscriber: UInt64, priority: Priority, payload: Payload) -> SubscribeAction? {
        guard var job = jobs[key] else { return nil }
        let before = job.priority
        job.subscribers[subscriber] = (priority, payload)
        jobs[key] = job
        let after = job.priority
        return .join(jobID: job.id, newPriority: after != before ? after : nil)
    }

    /// Removes `subscriber` from the job for `key`.
    mutating func unsubscribe(_ key: Key, subscriber: UInt64) -> UnsubscribeAction {
        guard var job = jobs[key], let entry = job.subscribers.removeValue(forKey: subscriber) else { return .none }
        if job.subscribers.isEmpty {
            jobs[key] = nil
            return .leftAndCancelJob(entry.payload, jobID: job.id)
        }
        let before = max(job.priority, entry.priority)
        jobs[key] = job
        let after = job.priority
        return .left(entry.payload, jobID: job.id, newPriority: after != before ? after : nil)
    }

    /// Changes a subscriber's priority; returns the job's new priority when it changed.
    mutating func setPriority(_ key: Key, subscriber: UInt64, to priority: Priority) -> (jobID: UInt64, Priority)? {
        guard var job = jobs[key], let entry = job.subscribers[subscriber] else { return nil }
        let before = job.priority
        job.subscribers[subscriber] = (priority, entry.payload)
        jobs[key] = job
        let after = job.priority
        return after != before ? (job.id, after) : nil
    }

    /// Job `jobID` finished: removes it and returns its subscribers' payloads (empty if the job was replaced
    /// or cancelled meanwhile).
    mutating func complete(_ key: Key, jobID: UInt64) -> [Payload] {
        guard let job = jobs[key], job.id == jobID else { return [] }
        jobs[key] = nil
        return job.subscribers.values.map(\.payload)
    }

    /// Whether job `jobID` is still the current job for `key`.
    func isCurrent(_ key: Key, jobID: UInt64) -> Bool { jobs[key]?.id == jobID }
}

// Sendable when what it holds is: the registry keeps it in a `Locked` (`State: Sendable`).
extension CoalescingStateMachine: Sendable where Key: Sendable, Payload: Sendable {}
extension CoalescingStateMachine.Job: Sendable where Key: Sendable, Payload: Sendable {}
