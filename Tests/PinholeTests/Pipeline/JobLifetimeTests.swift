import Foundation
import PinholeShared
import PinholeTestSupport
import Testing

@testable import Pinhole

/// A job's state goes when the job ends: its context, the priority observers the pipeline registers on it (which
/// capture it), and everything they hold. Before, each finished job's context and observers kept one another
/// alive for ever (LeakSanitizer reported it for every job of a `pinhole thumbnail` run).
@Suite(.timeLimit(scaledMinutes: 1))
struct JobLifetimeTests {
    /// A weak reference the test can read from another task.
    final class WeakContext: Sendable {
        private let state = Locked<Weak?>(nil)
        struct Weak { weak var context: JobContext? }

        func keep(_ context: JobContext) { state.withLock { $0 = Weak(context: context) } }
        var isSet: Bool { state.withLock { $0 != nil } }
        var isAlive: Bool { state.withLock { $0?.context != nil } }
    }

    @Test(arguments: [false, true])
    func aJobsContextIsReleasedWhenTheJobEnds(cancelled: Bool) async throws {
        // Given a registry whose job registers a priority observer that captures the job's context, as the
        // pipeline's image and data jobs do
        let registry = CoalescingRegistry<String, Int>()
        let seen = WeakContext()
        let gate = AsyncStream<Void>.makeStream()
        let caller = Task {
            try await registry.value(for: "a", subscriber: UniqueID.next(), priority: { .normal }) { context in
                context.observePriority { _ = context.priority }
                seen.keep(context)
                for await _ in gate.stream { break }
                // (work that goes on after its job was cancelled may still register an observer, as a data job
                // on its way to the network queue does)
                context.observePriority { _ = context.priority }
                try Task.checkCancellation()
                return 7
            }
        }
        defer { caller.cancel() }
        try #require(await eventually { seen.isSet })
        #expect(seen.isAlive)
        // When the job finishes, or its only caller leaves (which cancels it)
        if cancelled {
            caller.cancel()
            await #expect(throws: CancellationError.self) { try await caller.cancellableValue }
        } else {
            gate.continuation.yield()
            #expect(try await caller.cancellableValue == 7)
        }
        gate.continuation.finish()
        // Then nothing keeps its context alive
        #expect(await eventually { !seen.isAlive }, "the job's context outlived the job")
        #expect(registry.activeJobCount == 0)
    }
}
