import PinholeShared
import Synchronization

/// Warms the caches for images that will be wanted soon (the next screen of a list), at low priority.
///
/// ``startPrefetching(with:)`` starts an ``ImageTask`` per request not already cached or being prefetched;
/// ``stopPrefetching(with:)`` cancels those that have not finished (shared jobs go on for other callers).
/// Prefetched images land in the memory cache (and their bytes in the disk cache), so a row that appears later
/// is served at once. With ``Destination/diskCache`` the prefetcher stops at the disk: it downloads the original
/// bytes into the disk cache and decodes nothing (see ``ImagePipeline/data(for:)``).
///
/// Thread-safe; use it from any isolation. Tasks still running when the prefetcher is released are cancelled.
public final class ImagePrefetcher: Sendable {
    /// The pipeline that loads.
    public let pipeline: ImagePipeline
    /// The priority of prefetch work; `.low` by default.
    public let priority: ImageRequest.Priority
    /// Where prefetching stops; ``Destination/memoryCache`` by default.
    public let destination: Destination
    private let tasks = Locked<[ImageJobKey: ImageTask]>([:])
    /// Downloads under way for ``Destination/diskCache``, each with a token so that a finished one removes itself
    /// only.
    let dataTasks = Locked<[DataJobKey: (token: UInt64, task: Task<Void, Never>)]>([:])

    /// - Parameters:
    ///   - pipeline: the pipeline that loads.
    ///   - priority: the priority of prefetch work; `.low` by default.
    ///   - destination: ``Destination/memoryCache`` (decoded, the default) or ``Destination/diskCache`` (bytes only).
    public init(
        pipeline: ImagePipeline, priority: ImageRequest.Priority = .low, destination: Destination = .memoryCache
    ) {
        self.pipeline = pipeline
        self.priority = priority
        self.destination = destination
    }

    deinit {
        stopPrefetching()
    }

    /// Requests being prefetched now.
    public var activeCount: Int { tasks.withLock { $0.count } + dataTasks.withLock { $0.count } }

    /// Starts loading each request at ``priority``; memory-cache hits and duplicates are skipped.
    public func startPrefetching(with requests: [ImageRequest]) {
        for var request in requests {
            request.priority = priority
            if destination == .diskCache {
                startDownloading(request)
                continue
            }
            let key = request.imageJobKey
            guard pipeline.memoryCachedImage(for: request) == nil else { continue }
            let started: ImageTask? = tasks.withLock { tasks in
                guard tasks[key] == nil else { return nil }
                let task = pipeline.imageTask(for: request)
                tasks[key] = task
                return task
            }
            guard let started else { continue }
            Task { [weak self] in
                _ = try? await started.response
                self?.finished(key, task: started)
            }
        }
    }

    /// Cancels the prefetching of these requests if it has not finished.
    public func stopPrefetching(with requests: [ImageRequest]) {
        let cancelled: [ImageTask] = tasks.withLock { tasks in
            requests.compactMap { tasks.removeValue(forKey: $0.imageJobKey) }
        }
        for task in cancelled { task.cancel() }
        stopDownloading(requests)
    }

    /// Cancels all prefetching.
    public func stopPrefetching() {
        let all = tasks.withLock { tasks in
            defer { tasks.removeAll() }
            return Array(tasks.values)
        }
        for task in all { task.cancel() }
        stopDownloading(nil)
    }

    private func finished(_ key: ImageJobKey, task: ImageTask) {
        tasks.withLock { tasks in
            if tasks[key] === task { tasks[key] = nil }
        }
    }
}
