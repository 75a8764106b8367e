public import Foundation
import Synchronization

/// A fixed set of dedicated threads for blocking and CPU-heavy work (decoding, C calls, file I/O), so that
/// Swift's cooperative pool never blocks.
///
/// Work is taken in FIFO order. ``run(_:)`` suspends the calling task (its thread is released) until a worker
/// thread has run the closure. A task cancelled while its closure is still queued leaves with
/// `CancellationError` and the closure never runs; a closure already running is not interrupted.
///
/// Thread-safe; the threads live as long as the process (pools are meant to be long-lived and shared).
public final class WorkerThreadPool: Sendable {
    /// The number of worker threads.
    public let threadCount: Int
    /// The name each thread carries (`/proc/self/task/*/comm` shows its first 15 bytes).
    public let name: String

    private final class WorkItem: Sendable {
        let body: @Sendable (_ cancelled: Bool) -> Void
        let cancelled = Atomic<Bool>(false)
        init(_ body: @escaping @Sendable (_ cancelled: Bool) -> Void) { self.body = body }
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
    public init(threadCount: Int = ProcessInfo.processInfo.activeProcessorCount, name: String = "pinhole-worker") {
        self.threadCount = max(1, threadCount)
        self.name = name
        for index in 0..<self.threadCount {
            let thread = Thread { [self] in self.workLoop() }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
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
            if let item { item.body(item.cancelled.load(ordering: .acquiring)) }
        }
    }

    private func enqueue(_ item: WorkItem) {
        condition.lock()
        queue.push(item)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on one of the pool's threads and returns its result.
    ///
    /// - Throws: what `body` throws, or `CancellationError` if the task was cancelled before `body` started.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        let box = Locked<WorkItem?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let item = WorkItem { cancelled in
                    if cancelled {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    continuation.resume(with: Result { try body() })
                }
                box.withLock { $0 = item }
                if Task.isCancelled { item.cancelled.store(true, ordering: .releasing) }
                enqueue(item)
            }
        } onCancel: {
            box.withLock { $0 }?.cancelled.store(true, ordering: .releasing)
        }
    }

    /// The pool for CPU-heavy work such as decoding: one thread per active processor, shared by the process.
    public static let cpu = WorkerThreadPool(name: "pinhole-cpu")

    /// The pool for blocking file I/O: 4 threads, shared by the process.
    public static let io = WorkerThreadPool(threadCount: 4, name: "pinhole-io")
}
