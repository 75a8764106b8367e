import Dispatch
import Synchronization

/// Writes frames to standard output on a serial dispatch queue of its own, so a terminal that reads slowly (a
/// busy `tmux`, a remote link) blocks that queue's thread, never the main actor.
///
/// The render loop asks ``isBusy`` before drawing: while the previous frame is still being written it skips
/// the frame (the change stays pending and is drawn, diffed against what was last handed over, once the
/// terminal has caught up). Thread-safe.
final class TerminalWriter: Sendable {
    private let queue = DispatchQueue(label: "pinhole.gallery.terminal-writer")
    private let busy = Atomic<Bool>(false)

    /// `true` while a frame handed to ``write(_:)`` is still being written.
    var isBusy: Bool { busy.load(ordering: .acquiring) }

    /// Writes `text` in the background; the caller should have checked ``isBusy``.
    func write(_ text: String) {
        busy.store(true, ordering: .releasing)
        queue.async { [self] in
            TerminalSession.write(text)
            busy.store(false, ordering: .releasing)
        }
    }

    /// Blocks until everything handed over has been written. Call it off the main actor and off Swift's
    /// cooperative pool (for example on ``WorkerThreadPool/io``).
    func waitUntilIdle() {
        queue.sync {}
    }
}
