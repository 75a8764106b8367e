import PinholeShared

extension ImageTask {
    /// How much of the download has arrived.
    public struct Progress: Sendable, Hashable, CustomStringConvertible {
        /// Bytes received so far.
        public var receivedBytes: Int
        /// The expected total in bytes (`Content-Length`), when known.
        public var expectedBytes: Int?

        public init(receivedBytes: Int, expectedBytes: Int?) {
            self.receivedBytes = receivedBytes
            self.expectedBytes = expectedBytes
        }

        /// `receivedBytes / expectedBytes` in 0…1, when the total is known and not 0.
        public var fraction: Double? {
            guard let expectedBytes, expectedBytes > 0 else { return nil }
            return min(1, Double(receivedBytes) / Double(expectedBytes))
        }

        public var description: String { "\(receivedBytes)/\(expectedBytes.map(String.init) ?? "?") bytes" }
    }

    /// What happens to a task, in order: progress as bytes arrive, previews (opt-in), then one `finished`.
    public enum Event: Sendable {
        /// Bytes arrived (from the loader: at most every 64 KiB or 50 ms, and once at the end).
        case progress(Progress)
        /// A low-resolution picture of a progressive JPEG made from the scans received so far
        /// (``ImageRequest/Options/progressivePreviews``): the request's size and processors, never cached.
        case preview(ImageResponse)
        /// The end: the response, or the error (`CancellationError` after ``ImageTask/cancel()``).
        case finished(Result<ImageResponse, any Error>)
    }

    struct EventState {
        var progress: Progress?
        var finished: Result<ImageResponse, any Error>?
        var observers: [UInt64: AsyncStream<Event>.Continuation] = [:]
        /// Tests only: run by ``events`` on the subscribing thread as soon as it has left the lock, the first moment
        /// at which a `finish` on another thread can come in between.
        var afterSubscribing: (@Sendable () -> Void)?
    }

    /// The download's progress; `nil` before the first bytes, and for answers from a cache (nothing downloaded).
    public var progress: Progress? { eventState.withLock { $0.progress } }

    /// The task's events from now on, ending with `finished` (at once, when the task has already finished).
    ///
    /// Each access makes a new sequence: any number of observers each get every event. The latest progress is
    /// delivered first when there is one. Events are buffered (never dropped) until the observer takes them.
    public var events: AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        let id = UniqueID.next()
        let (finished, afterSubscribing) = eventState.withLock { state in
            // The latest progress is yielded under the lock, before `finish` on another thread can take it: yielded
            // after the lock, a `finish` in between ended the stream first and the replay was dropped (an observer
            // then saw `finished` alone). A yield only buffers the event or resumes the waiting observer's task; it
            // runs no code of the observer's here.
            if let progress = state.progress { continuation.yield(.progress(progress)) }
            if state.finished == nil { state.observers[id] = continuation }
            return (state.finished, state.afterSubscribing)
        }
        afterSubscribing?()
        if let finished {
            continuation.yield(.finished(finished))
            continuation.finish()
        } else {
            continuation.onTermination = { [weak self] _ in
                _ = self?.eventState.withLock { $0.observers.removeValue(forKey: id) }
            }
        }
        return stream
    }

    /// Bytes arrived for this task's source (called on the loader's thread).
    func receive(_ progress: Progress) {
        let observers = eventState.withLock { state -> [AsyncStream<Event>.Continuation] in
            guard state.finished == nil else { return [] }
            state.progress = progress
            return Array(state.observers.values)
        }
        for observer in observers { observer.yield(.progress(progress)) }
    }

    /// A preview was made for this task's request.
    func receive(preview: ImageResponse) {
        let observers = eventState.withLock { state in state.finished == nil ? Array(state.observers.values) : [] }
        for observer in observers { observer.yield(.preview(preview)) }
    }

    /// The load ended; observers get `finished` and their sequences end.
    func finish(_ result: Result<ImageResponse, any Error>) {
        let observers = eventState.withLock { state -> [AsyncStream<Event>.Continuation] in
            guard state.finished == nil else { return [] }
            state.finished = result
            defer { state.observers.removeAll() }
            return Array(state.observers.values)
        }
        for observer in observers {
            observer.yield(.finished(result))
            observer.finish()
        }
    }
}
