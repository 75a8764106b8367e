/// Cancels ``ImageSlot`` loads off the main actor: every load cancelled in one main-actor job by one task, started
/// after that job.
///
/// Cancelling runs the pipeline's cancellation handlers on the caller's thread (leaving the coalesced job,
/// cancelling its download and queue slot), so ``ImageSlot`` hands that to a task of its own. One task per slot
/// meant one thread woken per slot, and a woken thread takes the main actor's core for a moment: a refresh that
/// rebinds a screen of 12 rows lost up to about 1 ms of its frame to them in `pinhole bench scroll`. Here the
/// first cancel of a job queues a main-actor job (no thread is woken for that) which, after the caller's job,
/// starts one task that cancels everything listed by then.
///
/// Isolation: the main actor.
@MainActor
enum CancellationBatch {
    private typealias Item = (task: Task<Void, Never>?, imageTask: ImageTask?)

    private static var pending: [Item] = []

    /// Tasks started so far to cancel batches (for tests).
    private(set) static var batchesStarted = 0

    /// Cancels `imageTask`, then `task`, after the current main-actor job, from a utility-priority task; returns at
    /// once.
    static func cancel(_ task: Task<Void, Never>?, _ imageTask: ImageTask?) {
        guard task != nil || imageTask != nil else { return }
        pending.append((task, imageTask))
        guard pending.count == 1 else { return }
        batchesStarted += 1
        Task { @MainActor in
            let items = pending
            pending = []
            Task.detached(priority: .utility) {
                for item in items {
                    item.imageTask?.cancel()
                    item.task?.cancel()
                }
            }
        }
    }
}
