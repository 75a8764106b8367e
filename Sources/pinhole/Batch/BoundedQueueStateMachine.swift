/// The state of a ``BoundedQueue``, as a pure value: events (a send, a receive, a cancellation, the end) return
/// the continuations to resume, which the caller resumes after releasing its lock. No I/O, no locking, so the
/// rules can be tested directly.
///
/// Invariants: the buffer never holds more than ``capacity`` elements; consumers wait only while the buffer
/// is empty; producers wait only while it is full; once finished, nobody waits.
struct BoundedQueueStateMachine<Element: Sendable> {
    typealias ProducerContinuation = CheckedContinuation<Bool, Never>
    typealias ConsumerContinuation = CheckedContinuation<Element?, Never>

    /// What the caller does after an event, outside the lock.
    enum Action {
        /// Nothing: the caller's continuation was stored and will be resumed by a later event.
        case none
        /// Resume a producer with whether its element was taken.
        case resumeProducer(ProducerContinuation, Bool)
        /// Resume a consumer with an element, or `nil` at the end.
        case resumeConsumer(ConsumerContinuation, Element?)
        /// Resume both (a send handed straight to a waiting consumer, or a receive that made room for a
        /// waiting producer).
        case resumeBoth(ProducerContinuation, Bool, ConsumerContinuation, Element?)
        /// Resume every waiter: producers with `false`, consumers with `nil` (the end).
        case resumeAll(producers: [ProducerContinuation], consumers: [ConsumerContinuation])
    }

    private struct WaitingProducer {
        var id: UInt64
        var element: Element
        var continuation: ProducerContinuation
    }

    private struct WaitingConsumer {
        var id: UInt64
        var continuation: ConsumerContinuation
    }

    /// The most elements held at once (at least 1).
    let capacity: Int
    private var buffer: [Element] = []
    private var head = 0
    private var producers: [WaitingProducer] = []
    private var consumers: [WaitingConsumer] = []
    private(set) var isFinished = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Elements buffered now (at most ``capacity``).
    var count: Int { buffer.count - head }

    /// A producer offers `element`. `isCancelled`: the producer's task is cancelled (it is then never stored).
    mutating func send(_ element: Element, id: UInt64, isCancelled: Bool, continuation: ProducerContinuation)
        -> Action
    {
        if isFinished || isCancelled { return .resumeProducer(continuation, false) }
        if !consumers.isEmpty {
            let consumer = consumers.removeFirst()
            return .resumeBoth(continuation, true, consumer.continuation, element)
        }
        if count < capacity {
            buffer.append(element)
            return .resumeProducer(continuation, true)
        }
        producers.append(WaitingProducer(id: id, element: element, continuation: continuation))
        return .none
    }

    /// A consumer asks for the next element. `isCancelled`: the consumer's task is cancelled (it then gets
    /// `nil` unless an element is buffered).
    mutating func next(id: UInt64, isCancelled: Bool, continuation: ConsumerContinuation) -> Action {
        if let element = popFirst() {
            // Room was made: the first waiting producer's element moves into the buffer.
            if !producers.isEmpty {
                let producer = producers.removeFirst()
                buffer.append(producer.element)
                return .resumeBoth(producer.continuation, true, continuation, element)
            }
            return .resumeConsumer(continuation, element)
        }
        if isFinished || isCancelled { return .resumeConsumer(continuation, nil) }
        consumers.append(WaitingConsumer(id: id, continuation: continuation))
        return .none
    }

    /// The task of the producer `id` was cancelled: if it is waiting, it leaves with `false`.
    mutating func cancelProducer(id: UInt64) -> Action {
        guard let index = producers.firstIndex(where: { $0.id == id }) else { return .none }
        return .resumeProducer(producers.remove(at: index).continuation, false)
    }

    /// The task of the consumer `id` was cancelled: if it is waiting, it leaves with `nil`.
    mutating func cancelConsumer(id: UInt64) -> Action {
        guard let index = consumers.firstIndex(where: { $0.id == id }) else { return .none }
        return .resumeConsumer(consumers.remove(at: index).continuation, nil)
    }

    /// No more elements will be sent: buffered elements are still received, then `nil`; waiting producers
    /// leave with `false` (their elements are dropped).
    mutating func finish() -> Action {
        guard !isFinished else { return .none }
        isFinished = true
        let waiting = (producers.map(\.continuation), consumers.map(\.continuation))
        producers = []
        consumers = []
        return .resumeAll(producers: waiting.0, consumers: waiting.1)
    }

    private mutating func popFirst() -> Element? {
        guard head < buffer.count else { return nil }
        let element = buffer[head]
        head += 1
        if head == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= buffer.count {
            buffer.removeFirst(head)
            head = 0
        }
        return element
    }
}
