import PinholeShared
import Synchronization

/// Runs at most one job per key: callers asking for a key that is already being worked on join that job
/// (request coalescing) and all get its result.
///
/// - A caller whose task is cancelled leaves at once with `CancellationError`; the job goes on for the others.
/// - When the last caller leaves, the job's task is cancelled (and with it whatever it awaits: a download,
///   a queue slot, a nested job).
/// - The job runs at the highest priority of its callers; ``JobContext`` lets the work follow changes. A job's
///   priority is set under this registry's lock, so changes land in the order they were decided.
///
/// The rules live in ``CoalescingStateMachine``; this type holds its state in a `Locked`, starts tasks, and
/// resumes each caller's ``CoalescingWaiter`` outside the lock.
final class CoalescingRegistry<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Priority = ImageRequest.Priority
    typealias Work = @Sendable (JobContext) async throws -> Value
    private typealias Waiter = CoalescingWaiter<Value>

    /// A caller's place in a job it joined without suspending (``join(_:subscriber:priority:)``): await it with
    /// ``value(of:)``, or give it up with ``leave(_:)``.
    struct Subscription: Sendable {
        let key: Key
        let subscriber: UInt64
        fileprivate let waiter: CoalescingWaiter<Value>
        /// The joined job's context when the registry collects metrics (its stage times), else `nil`.
        let context: JobContext?
    }

    private struct State: Sendable {
        var machine = CoalescingStateMachine<Key, Waiter>()
        var contexts: [UInt64: JobContext] = [:]
        var tasks: [UInt64: Task<Void, Never>] = [:]

        /// Sets the job's new priority, if any (under the registry's lock); the context to notify then.
        mutating func changePriority(of jobID: UInt64, to newPriority: Priority?) -> JobContext? {
            guard let newPriority, let context = contexts[jobID] else { return nil }
            context.set(newPriority)
            return context
        }
    }

    private enum SubscribeOutcome {
        /// Started; the job's context when the registry collects metrics.
        case started(JobContext?)
        /// Joined; the context when the join raised the job's priority (its observers must be told), and the
        /// job's context when the registry collects metrics.
        case join(raised: JobContext?, metrics: JobContext?)
        case cancelled
    }

    private let state = Locked(State())
    /// Whether each job's context records stage times (``JobContext/metrics``).
    private let collectsMetrics: Bool

    /// - Parameter collectsMetrics: whether jobs record stage times for ``ImageTaskMetrics``; `false` by default.
    init(collectsMetrics: Bool = false) {
        self.collectsMetrics = collectsMetrics
    }
    private let joins = Atomic<Int>(0)
    private let starts = Atomic<Int>(0)

    /// Callers that joined a job already running.
    var joinCount: Int { joins.load(ordering: .relaxed) }
    /// Jobs started.
    var startCount: Int { starts.load(ordering: .relaxed) }
    /// Jobs running now.
    var activeJobCount: Int { state.withLock { $0.machine.jobs.count } }

    /// The result of the job for `key`, starting it with `work` when none runs.
    ///
    /// - Parameters:
    ///   - subscriber: unique for this call (``UniqueID/next()``); used by ``updatePriority(_:subscriber:from:)``.
    ///   - priority: read under the registry's lock, so a concurrent priority change is never lost.
    ///   - observeJob: when the registry collects metrics, called once before the wait with the job's context
    ///     and whether this caller joined it (`false`: it started it).
    /// - Throws: `CancellationError` when the caller is cancelled; otherwise what the job threw.
    func value(
        for key: Key,
        subscriber: UInt64,
        priority: @Sendable () -> Priority,
        observeJob: ((JobContext, _ joined: Bool) -> Void)? = nil,
        work: @escaping Work
    ) async throws -> Value {
        try Task.checkCancellation()
        let waiter = Waiter()
        return try await withTaskCancellationHandler {
            let outcome: SubscribeOutcome = state.withLock { state in
                // The cancellation handler may already have run: it sets the flag before it runs.
                if Task.isCancelled { return .cancelled }
                switch state.machine.subscribe(key, subscriber: subscriber, priority: priority(), payload: waiter) {
                case .start(let jobID, let jobPriority):
                    let context = JobContext(id: jobID, priority: jobPriority, collectsMetrics: collectsMetrics)
                    state.contexts[jobID] = context
                    // Made under the lock, so that from the moment the job exists a leaving caller finds its
                    // task to cancel (made after the lock, a preempted thread left a window in which the last
                    // caller could leave without cancelling it, and a new caller could join work nobody wanted).
                    state.tasks[jobID] = makeTask(key: key, context: context, work: work)
                    return .started(collectsMetrics ? context : nil)
                case .join(let jobID, let newPriority):
                    return .join(
                        raised: state.changePriority(of: jobID, to: newPriority),
                        metrics: collectsMetrics ? state.contexts[jobID] : nil)
                }
            }
            switch outcome {
            case .cancelled:
                throw CancellationError()
            case .started(let context):
                starts.add(1, ordering: .relaxed)
                if let context { observeJob?(context, false) }
            case .join(let raised, let context):
                joins.add(1, ordering: .relaxed)
                raised?.notifyObservers()
                if let context { observeJob?(context, true) }
            }
            return try await waiter.value()
        } onCancel: {
            leave(key: key, subscriber: subscriber)
        }
    }

    /// Joins the job for `key` if one runs, without suspending; `nil` when none runs (nothing changes then).
    ///
    /// From the moment this returns the job counts the caller among its subscribers: another caller leaving it
    /// at once does not cancel it. The caller must end the subscription: ``value(of:)``, or ``leave(_:)``.
    /// - Parameters: as for ``value(for:subscriber:priority:work:)``.
    func join(_ key: Key, subscriber: UInt64, priority: () -> Priority) -> Subscription? {
        let waiter = Waiter()
        let outcome: SubscribeOutcome? = state.withLock { state in
            guard
                case .join(let jobID, let newPriority)? =
                    state.machine.join(key, subscriber: subscriber, priority: priority(), payload: waiter)
            else { return nil }
            return .join(
                raised: state.changePriority(of: jobID, to: newPriority),
                metrics: collectsMetrics ? state.contexts[jobID] : nil)
        }
        guard case .join(let raised, let context)? = outcome else { return nil }
        joins.add(1, ordering: .relaxed)
        raised?.notifyObservers()
        return Subscription(key: key, subscriber: subscriber, waiter: waiter, context: context)
    }

    /// The result of the job `subscription` joined.
    /// - Throws: `CancellationError` when the caller is cancelled (it leaves the job then); otherwise what the
    ///   job threw.
    func value(of subscription: Subscription) async throws -> Value {
        try await withTaskCancellationHandler {
            try Task.checkCancellation()
            return try await subscription.waiter.value()
        } onCancel: {
            leave(subscription)
        }
    }

    /// Gives up `subscription` (the caller was answered otherwise, or failed): the job is cancelled when it was
    /// the last caller. Does nothing when the job has finished or the caller left already.
    func leave(_ subscription: Subscription) {
        leave(key: subscription.key, subscriber: subscription.subscriber)
    }

    /// Takes one caller's priority again (it changed); the job follows when its highest priority changes.
    ///
    /// - Parameter priority: read under the registry's lock, so that of two quick changes the later one wins
    ///   whatever order the calls arrive in (the caller stores its new priority first, then calls this).
    func updatePriority(_ key: Key, subscriber: UInt64, from priority: () -> Priority) {
        let changed: JobContext? = state.withLock { state in
            guard let (jobID, newPriority) = state.machine.setPriority(key, subscriber: subscriber, to: priority()),
                let context = state.contexts[jobID]
            else { return nil }
            context.set(newPriority)
            return context
        }
        changed?.notifyObservers()
    }

    /// The job's task. Called under the lock; the task takes the lock itself only when it finishes, on its own
    /// thread, so making it here cannot deadlock.
    private func makeTask(key: Key, context: JobContext, work: @escaping Work) -> Task<Void, Never> {
        Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await work(context))
            } catch {
                result = .failure(error)
            }
            self.finish(key: key, jobID: context.id, result: result)
        }
    }

    private func finish(key: Key, jobID: UInt64, result: Result<Value, any Error>) {
        let (waiters, context) = state.withLock { state in
            state.tasks[jobID] = nil
            return (state.machine.complete(key, jobID: jobID), state.contexts.removeValue(forKey: jobID))
        }
        context?.endObserving()
        for waiter in waiters { waiter.resume(with: result) }
    }

    private func leave(key: Key, subscriber: UInt64) {
        var cancelledTask: Task<Void, Never>?
        var lowered: JobContext?
        var ended: JobContext?
        let waiter: Waiter? = state.withLock { state in
            switch state.machine.unsubscribe(key, subscriber: subscriber) {
            case .none:
                return nil
            case .left(let waiter, let jobID, let newPriority):
                lowered = state.changePriority(of: jobID, to: newPriority)
                return waiter
            case .leftAndCancelJob(let waiter, let jobID):
                cancelledTask = state.tasks.removeValue(forKey: jobID)
                ended = state.contexts.removeValue(forKey: jobID)
                return waiter
            }
        }
        waiter?.resume(with: .failure(CancellationError()))
        cancelledTask?.cancel()
        ended?.endObserving()
        lowered?.notifyObservers()
    }
}
