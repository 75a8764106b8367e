import Foundation
import Synchronization

/// The result an image job shares with its callers.
struct LoadedImage: Sendable {
    var decoded: DecodedImage
    var source: ImageResponse.Source
}

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
    /// The image job for `key` (`request` is the caller that started it): bytes from the data job, then a decode
    /// under the CPU limit, then the memory cache if the key allows it.
    func runImageJob(_ request: ImageRequest, key: ImageJobKey, context: JobContext) async throws -> LoadedImage {
        if let stored = try await encodedImageHit(for: request, key: key) { return stored }
        let dataKey = key.data
        let dataSubscriber = UniqueID.next()
        context.observePriority { [dataJobs] priority in
            dataJobs.setPriority(dataKey, subscriber: dataSubscriber, to: priority)
        }
        let loaded = try await dataJobs.value(for: dataKey, subscriber: dataSubscriber, priority: { context.priority }) {
            [self] dataContext in try await runDataJob(request, key: dataKey, context: dataContext)
        }
        try Task.checkCancellation()

        let token = UniqueID.next()
        context.observePriority { [processingQueue] priority in processingQueue.setPriority(token, to: priority) }
        let options = DecodingOptions(
            thumbnail: request.thumbnail,
            maxPixelCount: configuration.maxPixelCount,
            maxFrameCount: configuration.maxFrameCount
        )
        let decoded = try await processingQueue.run(token: token, priority: { context.priority }) {
            try Task.checkCancellation()
            let start = ContinuousClock.now
            do {
                let decoded = try await configuration.decoder.decode(loaded.data, options: options)
                let elapsed = ContinuousClock.now - start
                recorder.record {
                    $0.decodes += 1
                    $0.decodeSeconds += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                }
                return decoded
            } catch {
                if !(error is CancellationError) { recorder.record { $0.decodeFailures += 1 } }
                throw error
            }
        }
        let result = try await processed(decoded, for: request)
        // Only bytes that decoded are worth keeping: a truncated or bogus body never reaches the disk cache.
        if let metadata = loaded.pendingDiskEntry, configuration.diskCachePolicy.storesOriginalData(for: request),
            loaded.claimDiskStore()
        {
            await storeOriginal(loaded.data, metadata: metadata, for: dataKey.sourceKey)
        }
        await storeEncodedImage(result, for: request, key: key, from: loaded)
        if key.writesMemoryCache {
            storeInMemory(result, for: key.image)
        }
        return LoadedImage(decoded: result, source: loaded.source)
    }

    /// The data job for `key` (`request` is the caller that started it): the disk cache when the key allows a
    /// read (fresh, or revalidated), else the loader under the network limit; the bytes are stored on disk only
    /// when the key allows a write.
    func runDataJob(_ request: ImageRequest, key: DataJobKey, context: JobContext) async throws -> LoadedData {
        if let inline = try inlineData(of: request) { return inline }
        try await checkSource(request.url)
        let isHTTP = !request.url.isFileURL
        let useDisk = request.usesDiskCacheForData && (key.readsDiskCache || key.writesDiskCache)
        let disk = useDisk ? await diskCacheSlot.cache() : nil
        var cached: DiskCache.Entry?
        if let disk, key.readsDiskCache {
            cached = await disk.entry(for: key.sourceKey)
            // Offline (returnCacheDataDontLoad) takes a stale entry as it is.
            if let cached, cached.metadata.isFresh(now: Date()) || !key.loadsFromSource {
                recorder.record { $0.diskHits += 1 }
                return LoadedData(
                    data: cached.data, source: .diskCache, pendingDiskEntry: nil, cachedMetadata: cached.metadata)
            }
        }
        try Task.checkCancellation()
        guard key.loadsFromSource else { throw Self.notCached(request) }

        var dataRequest = Self.dataRequest(for: request, cached: cached)
        observeLoading(&dataRequest, key: key, request: request)
        let token = UniqueID.next()
        context.observePriority { [networkQueue] priority in networkQueue.setPriority(token, to: priority) }
        let response = try await networkQueue.run(token: token, priority: { context.priority }) {
            try await download(dataRequest)
        }

        if response.isNotModified, let cached, let disk {
            recorder.record {
                $0.notModified += 1
                $0.diskHits += 1
            }
            let refreshed = DiskCacheFreshness.metadata(for: response, previous: cached.metadata,
                                                        defaultFreshness: configuration.diskCacheDefaultFreshness)
            await disk.updateMetadata(refreshed, for: key.sourceKey)
            return LoadedData(data: cached.data, source: .diskCache, pendingDiskEntry: nil, cachedMetadata: refreshed)
        }
        if response.isNotModified {
            throw PinholeError(.networkFailure, "\(request.url.absoluteString): 304 Not Modified without a cached copy")
        }
        if let error = PinholeError.forSniffed(ImageFormat.sniff(response.data)) { throw error }
        try checkSize(of: response.data, from: request.url)
        let metadata = disk == nil || !key.writesDiskCache ? nil : DiskCacheFreshness.metadata(
            for: response, previous: nil, defaultFreshness: configuration.diskCacheDefaultFreshness)
        let source: ImageResponse.Source = request.url.scheme?.lowercased() == "data" ? .providedData : isHTTP ? .network : .file
        return LoadedData(data: response.data, source: source, pendingDiskEntry: metadata)
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
