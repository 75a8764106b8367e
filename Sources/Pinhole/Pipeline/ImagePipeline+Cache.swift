public import Foundation

extension ImagePipeline {
    /// Looks up, stores and removes one request's entries in the pipeline's caches: its processed image (memory
    /// cache, and the encoded copy on disk) and its source's original bytes (disk cache).
    ///
    /// Keys are the request's own (``ImageRequest/imageKey`` and ``ImageRequest/sourceKey``, the request's
    /// headers included), so what is stored here is what ``ImagePipeline/image(for:)`` finds. Safe from any isolation;
    /// disk work runs on the disk cache's I/O pool.
    public var cache: Cache { Cache(pipeline: self) }

    /// See ``ImagePipeline/cache``.
    public struct Cache: Sendable {
        let pipeline: ImagePipeline

        /// The image the memory cache holds under `request`'s key, or `nil`; synchronous. Read as stored: no
        /// check of the request's source, its options not consulted, not counted in the metrics
        /// (``ImagePipeline/cachedImage(for:)`` does all three).
        public func storedImage(for request: ImageRequest) -> ImageResponse? {
            guard let decoded = pipeline.configuration.memoryCache?[request.imageKey] else { return nil }
            return ImageResponse(
                image: decoded.image, info: decoded.info, source: .memoryCache, request: request,
                animation: decoded.animation)
        }

        /// Puts `image` in the memory cache as `request`'s result (it should be what the request would give:
        /// the thumbnail after the processors).
        public func storeCachedImage(_ image: DecodedImage, for request: ImageRequest) {
            pipeline.storeInMemory(image, for: request.imageKey)
        }

        /// Removes `request`'s image from the memory cache and its encoded copy from the disk cache.
        public func removeCachedImage(for request: ImageRequest) async {
            pipeline.configuration.memoryCache?.removeValue(for: request.imageKey)
            await pipeline.lazyDiskCache.cache()?.removeEntry(for: EncodedImageEntry.diskKey(for: request.imageKey))
        }

        /// The original bytes of `request`'s source in the disk cache (fresh or not), or `nil` (also for a stored
        /// failure, ``DiskCache/Metadata/failureStatus``).
        public func cachedData(for request: ImageRequest) async -> Data? {
            guard let entry = await pipeline.lazyDiskCache.cache()?.entry(for: request.sourceKey),
                entry.metadata.failureStatus == nil
            else { return nil }
            return entry.data
        }

        /// Whether the disk cache holds `request`'s encoded image (fresh or not).
        public func containsEncodedImage(for request: ImageRequest) async -> Bool {
            await pipeline.lazyDiskCache.cache()?.entry(for: EncodedImageEntry.diskKey(for: request.imageKey)) != nil
        }

        /// Stores `data` as the original bytes of `request`'s source, fresh until `expiresAt` (`nil`: until the
        /// pipeline's ``Configuration/diskCacheDefaultFreshness`` from now).
        ///
        /// - Throws: ``PinholeError/Code/cacheUnavailable`` without a usable disk cache or when the write fails.
        public func storeCachedData(_ data: Data, for request: ImageRequest, expiresAt: Date? = nil) async throws {
            guard let disk = await pipeline.lazyDiskCache.cache() else {
                throw PinholeError(.cacheUnavailable, "the pipeline has no usable disk cache")
            }
            let freshness = pipeline.configuration.diskCacheDefaultFreshness.components
            let expiry = expiresAt ?? Date().addingTimeInterval(Double(freshness.seconds))
            try await disk.store(data, metadata: DiskCache.Metadata(expiresAt: expiry), for: request.sourceKey)
        }

        /// Removes the original bytes of `request`'s source from the disk cache, and any failure kept for it (in memory
        /// or on disk).
        public func removeCachedData(for request: ImageRequest) async {
            _ = pipeline.recentFailures.removeValue(for: request.sourceKey)
            await pipeline.lazyDiskCache.cache()?.removeEntry(for: request.sourceKey)
        }
    }
}
