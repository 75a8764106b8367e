package import Foundation

/// A value guarded by a lock, for small synchronous state (counters, registries, caches).
///
/// Why not `Synchronization.Mutex`: on Linux (Swift 6.3.1) `Mutex` is built on raw futex system calls, which
/// ThreadSanitizer cannot see, so every access under a `Mutex` is reported as a data race and a
/// `--sanitize=thread` run drowns in false reports. `Locked` uses `NSLock` (a pthread mutex underneath),
/// which ThreadSanitizer understands, at the same cost for uncontended locking (~20 ns).
///
/// Rules (as for any lock): keep critical sections short, never `await` or call user code or C codecs inside
/// ``withLock(_:)``; take what you need, unlock, then act.
///
/// Inlinable, so that callers in other modules of the package (the pipeline's hot paths) are specialised as
/// they were when `Locked` lived in `Pinhole`.
/// `State` is `Sendable`: the lock makes the accesses to the stored value exclusive, but a value that leaves the
/// lock (the closure's result, a reference kept inside) is then used from whichever thread took it, so it must be
/// safe to share itself.
package final class Locked<State: Sendable>: @unchecked Sendable {
    // Invariant: `state` is read and written only inside `withLock`, while `lock` is held, so no two threads
    // ever touch it at once; values leave the lock only as the closure's result, and are `Sendable`.
    @usableFromInline let lock = NSLock()
    @usableFromInline var state: State

    @inlinable
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
