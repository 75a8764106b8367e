public import Foundation
import PinholeShared

extension ImagePrefetcher {
    /// Where prefetching stops.
    public enum Destination: Sendable, Hashable {
        /// Download, decode and keep the thumbnail in the memory cache (bytes on disk as the pipeline's policy says).
        case memoryCache
        /// Download the original bytes into the disk cache only: no decode, no memory used for pixels.
        case diskCache
    }

    /// Starts prefetching the full-size images at `urls` (`ImageRequest(url:)` each): with
    /// ``Destination/diskCache`` their bytes; with ``Destination/memoryCache`` full-size decodes (for thumbnails,
    /// pass requests with a ``ThumbnailOptions`` to ``startPrefetching(with:)-(ImageRequest)`` instead).
    public func startPrefetching(with urls: [URL]) {
        startPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Stops prefetching the images at `urls` (as given to ``startPrefetching(with:)-([URL])``).
    public func stopPrefetching(with urls: [URL]) {
        stopPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Downloads `request`'s bytes into the disk cache at ``priority``, unless that download is already running.
    func startDownloading(_ request: ImageRequest) {
        let key = request.dataJobKey
        let pipeline = self.pipeline
        let priority = self.priority
        let token = UniqueID.next()
        dataTasks.withLock { tasks in
            guard tasks[key] == nil else { return }
            let task = Task { [weak self] in
                _ = try? await pipeline.data(for: request, subscriber: token, priority: { priority })
                self?.finishedDownloading(key, token: token)
            }
            tasks[key] = (token, task)
        }
    }

    /// Cancels the downloads of `requests` (all of them for `nil`).
    func stopDownloading(_ requests: [ImageRequest]?) {
        let cancelled: [Task<Void, Never>] = dataTasks.withLock { tasks in
            guard let requests else {
                defer { tasks.removeAll() }
                return tasks.values.map(\.task)
            }
            return requests.compactMap { tasks.removeValue(forKey: $0.dataJobKey)?.task }
        }
        for task in cancelled { task.cancel() }
    }

    private func finishedDownloading(_ key: DataJobKey, token: UInt64) {
        dataTasks.withLock { tasks in
            if tasks[key]?.token == token { tasks[key] = nil }
        }
    }
}
