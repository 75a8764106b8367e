/// The ``ImageTask``s waiting on each data job, so that a download's progress and previews reach every task
/// whose source it is (coalesced callers included). Tasks register before their load starts and leave when it ends.
final class LoadObservers: Sendable {
    private let tasks = Locked<[DataJobKey: [ObjectIdentifier: ImageTask]]>([:])

    func add(_ task: ImageTask) {
        tasks.withLock { $0[task.request.dataJobKey, default: [:]][ObjectIdentifier(task)] = task }
    }

    func remove(_ task: ImageTask) {
        let key = task.request.dataJobKey
        tasks.withLock { tasks in
            tasks[key]?[ObjectIdentifier(task)] = nil
            if tasks[key]?.isEmpty == true { tasks[key] = nil }
        }
    }

    /// The tasks waiting on `key` now.
    func tasks(for key: DataJobKey) -> [ImageTask] {
        tasks.withLock { $0[key].map { Array($0.values) } ?? [] }
    }

    /// Whether a task waiting on `key` asked for progressive previews.
    func wantPreviews(_ key: DataJobKey) -> Bool {
        tasks.withLock { $0[key]?.values.contains { $0.request.options.contains(.progressivePreviews) } ?? false }
    }
}
