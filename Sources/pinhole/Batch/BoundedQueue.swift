import Pinhole
import PinholeShared

/// A first-in, first-out queue of at most ``capacity`` elements between producers and consumers that wait
/// without blocking a thread: a producer's ``send(_:)`` suspends while the queue is full, a consumer's
/// ``next()`` while it is empty. It is what keeps a batch run's memory flat however long its input list: the
/// list is read only as fast as the pipeline takes inputs.
///
/// Safe from any isolation. The rules live in ``BoundedQueueStateMachine``; this class holds it under a lock
/// and resumes continuations outside the lock.
final class BoundedQueue<Element: Sendable>: Sendable {
    private let state: Locked<BoundedQueueStateMachine<Element>>
    private let ids = Locked<UInt64>(0)

    /// The most elements the queue holds at once.
    let capacity: Int

    /// - Parameter capacity: the most elements held at once; at least 1.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        state = Locked(BoundedQueueStateMachine(capacity: capacity))
    }

    /// Elements buffered now.
    var count: Int { state.withLock { $0.count } }

    /// Adds `element`, waiting while the queue is full.
    ///
    /// - Returns: `true` when the element was queued (or handed to a consumer); `false` when the queue was
    ///   finished or the calling task cancelled (the element is dropped).
    func send(_ element: Element) async -> Bool {
        let id = nextID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // The cancellation flag is read under the lock: a cancellation either happened before (seen
                // here) or its handler runs after the continuation is stored (and finds it).
                let action = state.withLock {
                    $0.send(element, id: id, isCancelled: Task.isCancelled, continuation: continuation)
                }
                Self.perform(action)
            }
        } onCancel: {
            Self.perform(state.withLock { $0.cancelProducer(id: id) })
        }
    }

    /// The next element, waiting while the queue is empty.
    ///
    /// - Returns: `nil` once the queue is finished and empty, or when the calling task is cancelled while
    ///   nothing is buffered.
    func next() async -> Element? {
        let id = nextID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let action = state.withLock {
                    $0.next(id: id, isCancelled: Task.isCancelled, continuation: continuation)
                }
                Self.perform(action)
            }
        } onCancel: {
            Self.perform(state.withLock { $0.cancelConsumer(id: id) })
        }
    }

    /// Ends the queue: consumers receive what is buffered, then `nil`; producers waiting or sending later get
    /// `false`. Idempotent.
    func finish() {
        Self.perform(state.withLock { $0.finish() })
    }

    private func nextID() -> UInt64 {
        ids.withLock { id in
            id += 1
            return id
        }
    }

    private static func perform(_ action: BoundedQueueStateMachine<Element>.Action) {
        switch action {
        case .none:
            break
        case .resumeProducer(let producer, let accepted):
            producer.resume(returning: accepted)
        case .resumeConsumer(let consumer, let element):
            consumer.resume(returning: element)
        case .resumeBoth(let producer, let accepted, let consumer, let element):
            consumer.resume(returning: element)
            producer.resume(returning: accepted)
        case .resumeAll(let producers, let consumers):
            for producer in producers { producer.resume(returning: false) }
            for consumer in consumers { consumer.resume(returning: nil) }
        }
    }
}
