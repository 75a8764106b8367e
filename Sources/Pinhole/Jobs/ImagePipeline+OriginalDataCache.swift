import Foundation

extension ImagePipeline {
    /// The disk cache's entry of `key`'s original bytes, fresh or not; `nil` when there is none, or when it was
    /// stored for other values of the request headers its `Vary` names (RFC 9111 §4.1, see ``DiskCacheFreshness``).
    func storedOriginal(for request: ImageRequest, key: DataJobKey, in disk: DiskCache) async -> DiskCache.Entry? {
        guard let entry = await disk.entry(for: key.sourceKey), entry.metadata.matches(requestHeaders: request.headers)
        else { return nil }
        return entry
    }

    /// The data job's answer from `cached` without asking the origin (a ``PipelineMetrics/diskHits``), or `nil`
    /// when it must be revalidated first (``DiskCache/Metadata/mayAnswer(now:offline:)``).
    func answerFromDisk(_ cached: DiskCache.Entry, key: DataJobKey) -> LoadedData? {
        guard cached.metadata.mayAnswer(now: Date(), offline: !key.loadsFromSource) else { return nil }
        recorder.record { $0.diskHits += 1 }
        return LoadedData(
            data: cached.data, source: .diskCache, pendingDiskEntry: nil, cachedMetadata: cached.metadata,
            freshUntil: cached.metadata.expiresAt)
    }

    /// When a full response to an `http(s)` `request` stops being fresh, by the disk cache's rules whether or not
    /// there is a disk cache (now, for a response that may not be stored); `nil` for other schemes.
    func freshUntil(of response: DataResponse, for request: ImageRequest) -> Date? {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        let now = Date()
        switch DiskCacheFreshness.decision(
            for: response, now: now, defaultFreshness: configuration.diskCacheDefaultFreshness)
        {
        case .store(let metadata): return metadata.expiresAt
        case .doNotStore: return now
        }
    }

    /// What to store on disk for a full response to `request` once a decode proved its bytes good, or `nil` when
    /// HTTP forbids storing it (``DiskCacheFreshness/decision(for:now:defaultFreshness:)``); then the entry it
    /// replaces is removed.
    func diskEntry(
        for response: DataResponse, of request: ImageRequest, key: DataJobKey, in disk: DiskCache
    ) async -> DiskCache.Metadata? {
        switch DiskCacheFreshness.decision(for: response, defaultFreshness: configuration.diskCacheDefaultFreshness) {
        case .store(let metadata):
            return metadata.varying(response.headers["vary"], requestHeaders: request.headers)
        case .doNotStore:
            // The response replaces what was stored, and may not be stored itself: the old entry goes.
            await disk.removeEntry(for: key.sourceKey)
            return nil
        }
    }

    /// Stores a source's original bytes; a failure is reported through ``Configuration/onDiagnostic``
    /// (once per kind: `DiskCacheFailureReport`) and dropped.
    ///
    /// Runs to the end when the calling job is cancelled meanwhile: the caller holds the one claim to store these
    /// bytes for every job that shares them (``LoadedData/claimDiskStore()``), so a store given up here would be
    /// given up for all of them (issue 25).
    ///
    /// - Returns: whether the bytes are on disk now.
    @discardableResult
    func storeOriginal(_ data: Data, metadata: DiskCache.Metadata, for key: String) async -> Bool {
        guard let disk = await lazyDiskCache.cache() else { return false }
        // A task of its own, awaited: the caller's cancellation does not reach it.
        let store = Task { try await disk.store(data, metadata: metadata, for: key) }
        do {
            try await store.value
            lazyDiskCache.storeFailures.storeSucceeded()
            return true
        } catch {
            lazyDiskCache.storeFailures.storeFailed(key, error)
            return false
        }
    }

    /// Stores the bytes of a download a decode proved good (``storeOriginal(_:metadata:for:)``); once they are on
    /// disk the download is no longer held for other data jobs (``UnstoredDownloads``): the disk cache answers them.
    func storeDownload(_ loaded: LoadedData, metadata: DiskCache.Metadata, for key: String) async {
        if await storeOriginal(loaded.data, metadata: metadata, for: key) {
            unstoredDownloads.forget(loaded, for: key)
        }
    }

    /// The bytes of a finished download of `key`'s source that wait for their disk store, as the disk cache
    /// would answer them once stored (`Vary` matched, fresh: ``DiskCache/Metadata/mayAnswer(now:offline:)``);
    /// `nil` when there are none. Counted in ``PipelineMetrics/downloadsReused``.
    func unstoredDownload(for request: ImageRequest, key: DataJobKey) -> LoadedData? {
        guard let loaded = unstoredDownloads.loaded(for: key.sourceKey), let metadata = loaded.pendingDiskEntry,
            metadata.matches(requestHeaders: request.headers),
            metadata.mayAnswer(now: Date(), offline: !key.loadsFromSource)
        else { return nil }
        recorder.record { $0.downloadsReused += 1 }
        return loaded
    }
}
