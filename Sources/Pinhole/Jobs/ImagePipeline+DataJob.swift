import Foundation
import Synchronization

/// The result a data job shares with the image jobs that need its bytes.
final class LoadedData: Sendable {
    let data: Data
    let source: ImageResponse.Source
    /// What to store in the disk cache once a decode proved the bytes good; `nil` when nothing is to be stored.
    let pendingDiskEntry: DiskCache.Metadata?
    /// The metadata of the disk-cache entry the bytes came from (for thumbnails made from them); `nil` otherwise.
    let cachedMetadata: DiskCache.Metadata?
    private let stored = Atomic<Bool>(false)

    init(
        data: Data, source: ImageResponse.Source, pendingDiskEntry: DiskCache.Metadata?,
        cachedMetadata: DiskCache.Metadata? = nil
    ) {
        self.data = data
        self.source = source
        self.pendingDiskEntry = pendingDiskEntry
        self.cachedMetadata = cachedMetadata
    }

    /// `true` exactly once: the first image job whose decode succeeded stores the bytes.
    func claimDiskStore() -> Bool {
        pendingDiskEntry != nil && !stored.exchange(true, ordering: .acquiringAndReleasing)
    }
}

extension ImagePipeline {
    /// The data job for `key` (`request` is the caller that started it): the disk cache when the key allows a
    /// read (fresh, or revalidated), else the loader under the network limit; the bytes are stored on disk only
    /// when the key allows a write and HTTP allows it (``DiskCacheFreshness``).
    func runDataJob(_ request: ImageRequest, key: DataJobKey, context: JobContext) async throws -> LoadedData {
        if let inline = try inlineData(of: request) { return inline }
        // The source was checked by every caller before it could reach this job (`image(for:)`).
        let isHTTP = !request.url.isFileURL
        let useDisk = request.usesDiskCacheForData && (key.readsDiskCache || key.writesDiskCache)
        let disk = useDisk ? await diskCacheSlot.cache() : nil
        var cached: DiskCache.Entry?
        if let disk, key.readsDiskCache {
            cached = await disk.entry(for: key.sourceKey)
            // RFC 9111 §4.1: a response stored for other values of the headers its Vary names does not answer.
            if let entry = cached, !entry.metadata.matches(requestHeaders: request.headers) { cached = nil }
            // Offline (returnCacheDataDontLoad) takes a stale entry unless it must be revalidated first.
            if let cached, cached.metadata.mayAnswer(now: Date(), offline: !key.loadsFromSource) {
                recorder.record { $0.diskHits += 1 }
                return LoadedData(
                    data: cached.data, source: .diskCache, pendingDiskEntry: nil, cachedMetadata: cached.metadata)
            }
        }
        try Task.checkCancellation()
        guard key.loadsFromSource else { throw Self.notCached(request) }

        var dataRequest = Self.dataRequest(for: request, cached: cached)
        let previews = observeLoading(&dataRequest, key: key, request: request, context: context)
        let token = UniqueID.next()
        context.observePriority { [networkQueue] in networkQueue.updatePriority(token, from: { context.priority }) }
        let response: DataResponse
        do {
            // However the download ends, the preview decode still running for it is cancelled.
            defer { previews?.stop() }
            response = try await networkQueue.run(token: token, priority: { context.priority }) {
                try await download(dataRequest)
            }
        } catch let error as PinholeError {
            // RFC 9111 §4.2.4: a stale copy may stand in when the origin cannot be reached, unless it forbids that.
            guard let cached, cached.metadata.mayServeStale, Self.meansOriginUnreachable(error) else { throw error }
            recorder.record {
                $0.diskHits += 1
                $0.staleHits += 1
            }
            return LoadedData(data: cached.data, source: .diskCache, pendingDiskEntry: nil)
        }

        if response.isNotModified, let cached, let disk {
            recorder.record {
                $0.notModified += 1
                $0.diskHits += 1
            }
            let verdict = DiskCacheFreshness.decision(
                revalidatedBy: response, previous: cached.metadata,
                defaultFreshness: configuration.diskCacheDefaultFreshness)
            var refreshedMetadata: DiskCache.Metadata?
            switch verdict {
            case .store(let updated):
                let refreshed = updated.varying(
                    response.headers["vary"] ?? cached.metadata.vary, requestHeaders: request.headers)
                await disk.updateMetadata(refreshed, for: key.sourceKey)
                refreshedMetadata = refreshed
            case .doNotStore: await disk.removeEntry(for: key.sourceKey)
            }
            return LoadedData(
                data: cached.data, source: .diskCache, pendingDiskEntry: nil, cachedMetadata: refreshedMetadata)
        }
        if response.isNotModified {
            throw PinholeError(.networkFailure, "\(request.url.absoluteString): 304 Not Modified without a cached copy")
        }
        if let error = PinholeError.forSniffed(ImageFormat.sniff(response.data)) { throw error }
        try checkSize(of: response.data, from: request.url)
        var pendingDiskEntry: DiskCache.Metadata?
        if let disk, key.writesDiskCache {
            let freshness = configuration.diskCacheDefaultFreshness
            switch DiskCacheFreshness.decision(for: response, defaultFreshness: freshness) {
            case .store(let metadata):
                pendingDiskEntry = metadata.varying(response.headers["vary"], requestHeaders: request.headers)
            // The response replaces what was stored, and may not be stored itself: the old entry goes.
            case .doNotStore: await disk.removeEntry(for: key.sourceKey)
            }
        }
        let source: ImageResponse.Source =
            request.url.scheme?.lowercased() == "data" ? .providedData : isHTTP ? .network : .file
        return LoadedData(data: response.data, source: source, pendingDiskEntry: pendingDiskEntry)
    }

    /// Whether `error` says the origin could not be reached (transport failure, a body cut short, timeout, `5xx`),
    /// the cases in which RFC 9111 lets a cache answer with a stale copy (§4.2.4; §4.3.3 for a `5xx`).
    static func meansOriginUnreachable(_ error: PinholeError) -> Bool {
        switch error.code {
        case .networkFailure, .truncated, .timeout: true
        case .httpStatus: (500...599).contains(error.httpStatusCode ?? 0)
        default: false
        }
    }

    private func download(_ request: DataRequest) async throws -> DataResponse {
        try Task.checkCancellation()
        recorder.record { $0.downloadsStarted += 1 }
        do {
            let response = try await loader(for: request.url).loadData(for: request)
            recorder.record {
                $0.downloadsCompleted += 1
                $0.bytesReceived += response.data.count
            }
            return response
        } catch is CancellationError {
            recorder.record { $0.downloadsCancelled += 1 }
            throw CancellationError()
        } catch {
            recorder.record { $0.downloadsFailed += 1 }
            throw error
        }
    }

    func storeOriginal(_ data: Data, metadata: DiskCache.Metadata, for key: String) async {
        guard let disk = await diskCacheSlot.cache() else { return }
        do {
            try await disk.store(data, metadata: metadata, for: key)
        } catch {
            configuration.onDiagnostic?("disk cache: could not store \(key): \(error)")
        }
    }
}
