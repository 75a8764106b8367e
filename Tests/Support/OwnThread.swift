import Foundation

/// Runs blocking `body` (a `waitpid`, a `pthread_join`, a blocking socket or file read) on a new thread of its
/// own and suspends the calling task until it returns, so no thread of Swift's cooperative pool (2 per
/// priority on this 2-core machine) ever blocks in a test.
///
/// A thread per call, not a shared bounded pool: a blocking wait can never queue behind another test's
/// (``WorkerThreadPool/io`` belongs to the code under test, and 4 long waits would starve it). The thread is
/// not interrupted when the task is cancelled: give `body` its own bound (a receive timeout, a child killed
/// by ``SpawnedProcess``'s timeout).
///
/// - Parameter stackSize: bytes; 1 MiB by default (the helpers run small C calls).
/// - Returns: what `body` returns.
/// - Throws: what `body` throws.
public func onOwnThread<T: Sendable>(
    stackSize: Int = 1 << 20, _ body: @escaping @Sendable () throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = "test-blocking"
        thread.stackSize = stackSize
        thread.start()
    }
}

/// ``onOwnThread(stackSize:_:)`` for a `body` that cannot throw.
public func onOwnThread<T: Sendable>(stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.name = "test-blocking"
        thread.stackSize = stackSize
        thread.start()
    }
}
