public import Testing

/// A per-test-case time limit of `minutes` × ``LoadFactor/current``, whose clock starts when the case starts
/// running: Swift Testing's own `.timeLimit` counts from the moment the test is scheduled, so with
/// `--experimental-maximum-parallelization-width` (`scripts/run-tests.sh`) a test queued behind others ran out
/// of time before its first line (seen: two disk-cache tests at 60 s, with no case started).
///
/// When the limit passes, an issue is recorded and the case's task is cancelled: `async let`s, task groups,
/// `eventually`, ``SpawnedProcess`` waits and gates then end, and the case fails instead of waiting for ever. (A
/// case that ignores cancellation still holds its slot; the run's watchdog reports it.)
public struct ScaledTimeLimitTrait: TestTrait, SuiteTrait, TestScoping {
    /// Minutes on an idle machine.
    public var minutes: Int

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let limit = LoadFactor.scaled(.seconds(60 * minutes))
        // The group awaits both children before it returns, so `function` never outlives this call.
        try await withoutActuallyEscaping(function) { function in
            try await race(function, against: limit, at: test.sourceLocation)
        }
    }

    private func race(
        _ function: @escaping @Sendable () async throws -> Void, against limit: Duration, at location: SourceLocation
    ) async throws {
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            group.addTask {
                try await function()
                return .finished
            }
            group.addTask {
                do { try await Task.sleep(for: limit) } catch { return .stoodDown }
                return .timedOut
            }
            // The first to finish decides; the other is cancelled. A body that throws ends the group at once.
            let first = try await group.next()
            group.cancelAll()
            guard first == .timedOut else { return }
            Issue.record(
                "Time limit exceeded: \(limit) (\(minutes) min × load factor); the test was cancelled",
                sourceLocation: location)
            // Wait for the cancelled body to unwind; its CancellationError is the time limit's, already reported.
            do {
                while try await group.next() != nil {}
            } catch is CancellationError {}
        }
    }

    private enum Outcome: Sendable { case finished, timedOut, stoodDown }
}

extension Trait where Self == ScaledTimeLimitTrait {
    /// A time limit of `minutes` × ``LoadFactor/current``, counted from the moment each test case starts (see
    /// ``ScaledTimeLimitTrait``). A limit is a hang detector, not a speed assertion; every bounded wait inside a
    /// test (10 s × the factor by default) stays well inside it.
    public static func timeLimit(scaledMinutes minutes: Int) -> Self {
        ScaledTimeLimitTrait(minutes: minutes)
    }
}
