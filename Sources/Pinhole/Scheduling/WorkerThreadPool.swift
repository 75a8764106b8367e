public import Foundation
import PinholeShared

#if canImport(Glibc)
    import Glibc
#endif

/// A fixed set of dedicated threads for blocking and CPU-heavy work (decoding, C calls, file I/O), so that
/// Swift's cooperative pool never blocks.
///
/// Work is taken in FIFO order. ``run(_:)`` suspends the calling task (its thread is released) until a worker
/// thread has run the closure. A task cancelled while its closure is still queued leaves at once with
/// `CancellationError` and the closure never runs; a closure already running is not interrupted.
///
/// Thread-safe; the threads live as long as the process (pools are meant to be long-lived and shared).
public final class WorkerThreadPool: Sendable {
    /// The number of worker threads.
    public let threadCount: Int
    /// The name each thread carries (`/proc/self/task/*/comm` shows its first 15 bytes).
    public let name: String

    /// One queued closure and its caller. Whoever claims it first — a worker thread (to run it) or the caller's
    /// cancellation handler (to leave at once) — resumes the caller, exactly once; the other finds it claimed.
    /// Claiming drops the closure, so a claimed item keeps nothing alive (it may capture a whole image).
    private final class WorkItem: Sendable {
        /// `run` resumes the caller with the closure's result; `cancel` resumes it with `CancellationError`.
        private let actions: Locked<(run: @Sendable () -> Void, cancel: @Sendable () -> Void)?>

        init(run: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) {
            actions = Locked((run, cancel))
        }

        /// Takes the actions if nobody has; `nil` once claimed.
        func claim() -> (run: @Sendable () -> Void, cancel: @Sendable () -> Void)? {
            actions.withLock { actions in
                defer { actions = nil }
                return actions
            }
        }
    }

    /// FIFO of pending items. A popped slot is cleared at once: an item taken keeps nothing alive (its closure
    /// may capture a whole image), and the array is compacted once more than half of it is spent.
    private struct Queue {
        var items: [WorkItem?] = []
        var head = 0

        mutating func push(_ item: WorkItem) { items.append(item) }

        mutating func pop() -> WorkItem? {
            guard head < items.count else { return nil }
            let item = items[head]
            items[head] = nil
            head += 1
            if head > 64 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            return item
        }
    }

    // NSCondition guards `queue`: every access happens between lock() and unlock().
    private let condition = NSCondition()
    // Invariant: only read or written while `condition` is locked, which makes the class safe to share.
    nonisolated(unsafe) private var queue = Queue()

    /// Starts `threadCount` threads (at least 1).
    ///
    /// - Parameters:
    ///   - threadCount: number of threads; the active processor count by default.
    ///   - name: thread name prefix, for diagnostics.
    ///   - niceness: added to each thread's nice value (Linux: per thread, and inherited by the threads it starts,
    ///     such as libvips' own); 0 by default. A server gives its decode threads a higher one, so that the threads
    ///     that accept and answer requests get a core first.
    public init(
        threadCount: Int = ProcessInfo.processInfo.activeProcessorCount, name: String = "pinhole-worker",
        niceness: Int32 = 0
    ) {
        self.threadCount = max(1, threadCount)
        self.name = name
        for index in 0..<self.threadCount {
            let threadName = "\(name)-\(index)"
            let thread = Thread { [self] in
                // Named from inside: on Linux, Foundation gives the kernel (`comm`) only a name set on the running
                // thread.
                Thread.current.name = threadName
                if niceness != 0 { Self.addNiceness(niceness) }
                self.workLoop()
            }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Raises the calling thread's nice value by `niceness`: on Linux the nice value belongs to each thread, and
    /// `setpriority(PRIO_PROCESS, 0, …)` sets the calling thread's alone (setpriority(2), "Bugs").
    private static func addNiceness(_ niceness: Int32) {
        #if os(Linux)
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            errno = 0
            let current = getpriority(which, 0)
            guard errno == 0 else { return }
            _ = setpriority(which, 0, min(19, current + niceness))
        #endif
    }

    private func workLoop() {
        while true {
            condition.lock()
            var item = queue.pop()
            while item == nil {
                condition.wait()
                item = queue.pop()
            }
            condition.unlock()
            // A cancelled caller already claimed its item and left: skip it.
            item?.claim()?.run()
        }
    }

    /// Closures waiting for a thread (a cancelled caller's item counts until a worker skips it); for tests and
    /// diagnostics.
    var queuedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.items.count - queue.head
    }

    private func enqueue(_ item: WorkItem) {
        condition.lock()
        queue.push(item)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on one of the pool's threads and returns its result.
    ///
    /// A caller cancelled while `body` waits in the queue leaves at once with `CancellationError` (it does not wait
    /// for a thread to come free), and `body` never runs; a `body` already running is not interrupted.
    ///
    /// - Throws: what `body` throws, or `CancellationError` if the task was cancelled before `body` started.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        let box = Locked<WorkItem?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let item = WorkItem(
                    run: { continuation.resume(with: Result { try body() }) },
                    cancel: { continuation.resume(throwing: CancellationError()) })
                box.withLock { $0 = item }
                // The cancellation handler may have run before the item existed: it sets the flag first.
                if Task.isCancelled, let actions = item.claim() {
                    actions.cancel()
                    return
                }
                enqueue(item)
            }
        } onCancel: {
            box.withLock { $0 }?.claim()?.cancel()
        }
    }

    /// The pool for CPU-heavy work such as decoding: one thread per active processor, shared by the process.
    public static let cpu = WorkerThreadPool(name: "pinhole-cpu")

    /// The pool for blocking file I/O: 4 threads, shared by the process.
    public static let io = WorkerThreadPool(threadCount: 4, name: "pinhole-io")
}
