import Foundation
import Synchronization

/// The result a data job shares with the image jobs that need its bytes.
final class LoadedData: Sendable {
    let data: Data
    let source: ImageResponse.Source
    /// Where the bytes came from, finer than ``source`` (for ``ImageTaskMetrics``).
    let origin: ImageTaskMetrics.Source
    /// What to store in the disk cache once a decode proved the bytes good; `nil` when nothing is to be stored.
    let pendingDiskEntry: DiskCache.Metadata?
    /// The metadata of the disk-cache entry the bytes came from (for thumbnails made from them); `nil` otherwise.
    let cachedMetadata: DiskCache.Metadata?
    /// When the HTTP response the bytes came from stops being fresh (``DiskCacheFreshness``), which bounds how long
    /// images made from them stay in the memory cache; `nil` when HTTP says nothing of them (a file, `data:`).
    let freshUntil: Date?
    private let stored = Atomic<Bool>(false)

    /// - Parameter origin: ``ImageTaskMetrics/Source`` of `source` by default.
    init(
        data: Data, source: ImageResponse.Source, origin: ImageTaskMetrics.Source? = nil,
        pendingDiskEntry: DiskCache.Metadata?, cachedMetadata: DiskCache.Metadata? = nil, freshUntil: Date? = nil
    ) {
        self.data = data
        self.source = source
        self.origin = origin ?? ImageTaskMetrics.Source(source)
        self.pendingDiskEntry = pendingDiskEntry
        self.cachedMetadata = cachedMetadata
        self.freshUntil = freshUntil
    }

    /// `true` exactly once: the first image job whose decode succeeded stores the bytes.
    func claimDiskStore() -> Bool {
        pendingDiskEntry != nil && !stored.exchange(true, ordering: .acquiringAndReleasing)
    }
}

extension ImagePipeline {
    /// The data job for `key` (`request` is the caller that started it), stage by stage: bytes in hand
    /// (``inlineData(of:)``); when the key allows a disk read, a finished download of the source still waiting
    /// for its disk store (``unstoredDownload(for:key:)``), then the disk cache of originals
    /// (``storedOriginal(for:key:in:)``, ``answerFromDisk(_:key:)``); the loader under the network limit
    /// (``load(_:key:cached:context:)``); the revalidation of a stale entry (``revalidated(_:by:for:key:in:)``,
    /// ``staleStandIn(_:after:)``); and for new bytes what may be stored on disk, when the key allows a write
    /// (``diskEntry(for:of:key:in:)``). The rules are HTTP's (``DiskCacheFreshness``).
    func runDataJob(_ request: ImageRequest, key: DataJobKey, context: JobContext) async throws -> LoadedData {
        if let inline = try inlineData(of: request) { return inline }
        // A wait the origin asked for holds back the network only: the disk is read first (`isOriginWait`).
        let recent = recentFailure(for: request, key: key)
        if let recent, !Self.isOriginWait(recent) { throw answer(with: recent) }
        // The source was checked by every caller before it could reach this job (`image(for:)`).
        let useDisk = request.usesDiskCacheForData && (key.readsDiskCache || key.writesDiskCache)
        let disk = useDisk ? await lazyDiskCache.cache() : nil
        if disk != nil, key.readsDiskCache, let unstored = unstoredDownload(for: request, key: key) { return unstored }
        var cached: DiskCache.Entry?
        if let disk, key.readsDiskCache {
            let lookupStart = context.metricsClock()
            cached = await storedOriginal(for: request, key: key, in: disk)
            context.record(.dataDiskLookup, since: lookupStart)
            if let stored = cached, stored.metadata.failureStatus != nil {
                // A kept wait is the origin's newer word, with its `Retry-After`; the stored failure has no head.
                if let wait = recent { throw answer(with: wait) }
                if let failure = failureFromDisk(stored, for: request, key: key) { throw failure }
                cached = nil  // a stale failure has nothing to revalidate or stand in with
            }
            if let cached, let answer = answerFromDisk(cached, key: key) { return answer }
        }
        try Task.checkCancellation()
        guard key.loadsFromSource else { throw Self.notCached(request) }
        if let wait = recent {
            if let stale = staleStandIn(cached, after: wait) { return stale }
            throw answer(with: wait)
        }

        let response: DataResponse
        do {
            response = try await load(request, key: key, cached: cached, context: context)
        } catch let error as PinholeError {
            if let stale = staleStandIn(cached, after: error) {
                rememberWait(of: error, for: request, key: key)
                return stale
            }
            await remember(error, for: request, key: key, cached: cached, in: disk)
            throw error
        }
        await forgetFailures(of: request, key: key, cached: cached, in: disk)
        if response.isNotModified, let cached, let disk {
            return await revalidated(cached, by: response, for: request, key: key, in: disk)
        }
        if response.isNotModified {
            throw PinholeError(.networkFailure, "\(request.url.absoluteString): 304 Not Modified without a cached copy")
        }
        if let error = PinholeError.forSniffed(ImageFormat.sniff(response.data)) { throw error }
        try checkSize(of: response.data, from: request.url)
        var pendingDiskEntry: DiskCache.Metadata?
        if let disk, key.writesDiskCache {
            pendingDiskEntry = await diskEntry(for: response, of: request, key: key, in: disk)
        }
        let isHTTP = !request.url.isFileURL
        let source: ImageResponse.Source =
            request.url.scheme?.lowercased() == "data" ? .providedData : isHTTP ? .network : .file
        let loaded = LoadedData(
            data: response.data, source: source, pendingDiskEntry: pendingDiskEntry,
            freshUntil: freshUntil(of: response, for: request))
        // Held while this job is still registered, so no data job of the source can start between the two.
        if pendingDiskEntry != nil { unstoredDownloads.hold(loaded, for: key.sourceKey) }
        return loaded
    }
}
