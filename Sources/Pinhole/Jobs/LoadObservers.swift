import PinholeShared

/// The ``ImageTask``s waiting on each data job, so that a download's progress and previews reach every task
/// whose source it is (coalesced callers included). Tasks register before their load starts and leave when it ends.
///
/// It also knows each download's ``PreviewMaker``: when the last task that wants previews of a download leaves
/// (cancelled, or finished), the preview decode still running for it is cancelled.
final class LoadObservers: Sendable {
    private struct State {
        var tasks: [DataJobKey: [ObjectIdentifier: ImageTask]] = [:]
        var previewMakers: [DataJobKey: PreviewMaker] = [:]

        func wantPreviews(_ key: DataJobKey) -> Bool {
            tasks[key]?.values.contains { $0.request.options.contains(.progressivePreviews) } ?? false
        }
    }

    private let state = Locked(State())

    func add(_ task: ImageTask) {
        state.withLock { $0.tasks[task.request.dataJobKey, default: [:]][ObjectIdentifier(task)] = task }
    }

    func remove(_ task: ImageTask) {
        let key = task.request.dataJobKey
        let unwanted: PreviewMaker? = state.withLock { state in
            state.tasks[key]?[ObjectIdentifier(task)] = nil
            if state.tasks[key]?.isEmpty == true { state.tasks[key] = nil }
            return state.wantPreviews(key) ? nil : state.previewMakers[key]
        }
        unwanted?.cancelRunningDecode()
    }

    /// The tasks waiting on `key` now.
    func tasks(for key: DataJobKey) -> [ImageTask] {
        state.withLock { $0.tasks[key].map { Array($0.values) } ?? [] }
    }

    /// Whether a task waiting on `key` asked for progressive previews.
    func wantPreviews(_ key: DataJobKey) -> Bool {
        state.withLock { $0.wantPreviews(key) }
    }

    /// `maker` watches the download of `key` (one data job runs per key at a time).
    func register(_ maker: PreviewMaker, for key: DataJobKey) {
        state.withLock { $0.previewMakers[key] = maker }
    }

    /// `maker`'s download ended; a later data job's maker for the same key is kept.
    func unregister(_ maker: PreviewMaker, for key: DataJobKey) {
        state.withLock { state in
            if state.previewMakers[key] === maker { state.previewMakers[key] = nil }
        }
    }
}
