extension Task where Failure == any Error {
    /// The task's value. Unlike `value`, cancelling the waiting task (a test's time limit, a failed `#require`
    /// unwinding a task group) cancels this task too: awaiting `value` alone would wait for ever on a task
    /// stuck on a gate.
    public var cancellableValue: Success {
        get async throws {
            try await withTaskCancellationHandler {
                try await value
            } onCancel: {
                cancel()
            }
        }
    }
}

extension Task where Failure == Never {
    /// The task's value; cancelling the waiting task cancels this task too (see the throwing form).
    public var cancellableValue: Success {
        get async {
            await withTaskCancellationHandler {
                await value
            } onCancel: {
                cancel()
            }
        }
    }
}
