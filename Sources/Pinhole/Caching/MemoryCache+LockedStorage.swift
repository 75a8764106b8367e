public import Foundation

extension MemoryCache {
    /// The cache's ``MemoryCacheState`` behind an `NSLock` (a pthread mutex, which ThreadSanitizer sees).
    ///
    /// The same lock as `PinholeShared`'s `Locked`, kept here because the cache's hit and insert paths are
    /// `@inlinable`: public inlinable code can reference only public declarations, and `PinholeShared` is not
    /// part of Pinhole's public API. Never call user code other than `Key`'s `hash(into:)` and `==` inside.
    @usableFromInline
    final class LockedStorage: @unchecked Sendable {
        // Invariant: `state` is read and written only inside `withLock`, while `lock` is held, so no two
        // threads ever touch it at once; values leave the lock only as the closure's result.
        @usableFromInline let lock = NSLock()
        @usableFromInline var state = MemoryCacheState<Key, Value>()

        @inlinable
        init() {}

        /// Runs `body` with exclusive access to the state and returns its result.
        @inlinable
        func withLock<Result>(_ body: (inout MemoryCacheState<Key, Value>) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&state)
        }
    }
}
