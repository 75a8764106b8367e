public import Foundation

extension ImagePipeline {
    /// The original bytes of `request`'s source, through the disk cache and the loader (coalesced with image jobs
    /// of the same source), with no decode. Downloaded bytes are stored in the disk cache when the request allows
    /// a write and HTTP allows storing (whatever ``Configuration/diskCachePolicy`` says: this is how a source gets
    /// to disk without being shown). Bytes to be stored are decoded first at 64 px under the CPU limit (only what
    /// decodes is stored); a body that is no image, or does not decode, fails.
    ///
    /// ``ImagePrefetcher`` with ``ImagePrefetcher/Destination/diskCache`` uses it.
    /// - Throws: `CancellationError`; ``PinholeError`` (``PinholeError/Code/notCached`` offline).
    public func data(for request: ImageRequest) async throws -> Data {
        try await data(for: request, subscriber: UniqueID.next(), priority: { request.priority })
    }

    func data(
        for request: ImageRequest, subscriber: UInt64, priority: @escaping @Sendable () -> Priority
    ) async throws -> Data {
        try validate(request)
        if request.data == nil { try await checkSource(request.url) }
        let key = request.dataJobKey
        let loaded = try await dataJobs.value(for: key, subscriber: subscriber, priority: priority) {
            [self] context in try await runDataJob(request, key: key, context: context)
        }
        if let metadata = loaded.pendingDiskEntry {
            // Nothing reaches the disk cache that has not decoded: a small decode under the CPU limit proves the
            // bytes whole (a sniffed header says nothing of a truncated or corrupt body). Bad bytes fail here.
            var options = decodingOptions(for: request)
            options.thumbnail = ThumbnailOptions(maxPixelSize: 64)
            _ = try await decodeUnderLimit(loaded.data, options: options, priority: priority, countsAsDecode: false)
            try Task.checkCancellation()
            if loaded.claimDiskStore() { await storeOriginal(loaded.data, metadata: metadata, for: key.sourceKey) }
        }
        return loaded.data
    }
}
