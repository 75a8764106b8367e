import Foundation
import PinholeShared

/// The result an image job shares with its callers.
struct LoadedImage: Sendable {
    var decoded: DecodedImage
    var source: ImageResponse.Source
}

extension ImagePipeline {
    /// The image job for `key` (`request` is the caller that started it): bytes from the data job, then a decode
    /// under the CPU limit, then the memory cache if the key allows it.
    func runImageJob(_ request: ImageRequest, key: ImageJobKey, context: JobContext) async throws -> LoadedImage {
        if let stored = try await encodedImageHit(for: request, key: key, context: context) { return stored }
        let dataKey = key.data
        let dataSubscriber = UniqueID.next()
        context.observePriority { [dataJobs] in
            dataJobs.updatePriority(dataKey, subscriber: dataSubscriber, from: { context.priority })
        }
        // The data job's stages count as this job's (metrics on only).
        let observeDataJob: ((JobContext, Bool) -> Void)? =
            context.metrics == nil ? nil : { dataContext, _ in context.recordDataJob(dataContext) }
        var loaded = try await dataJobs.value(
            for: dataKey, subscriber: dataSubscriber, priority: { context.priority }, observeJob: observeDataJob,
            work: { [self] dataContext in try await runDataJob(request, key: dataKey, context: dataContext) })
        try Task.checkCancellation()
        context.recordSource(loaded.origin)

        let decoded: DecodedImage
        do {
            decoded = try await decodeUnderLimit(loaded.data, for: request, context: context)
        } catch let error as PinholeError where loaded.source == .diskCache && Self.meansUndecodable(error) {
            loaded = try await refetching(afterUndecodableEntry: error, for: request, key: dataKey, context: context)
            context.recordSource(loaded.origin)
            decoded = try await decodeUnderLimit(loaded.data, for: request, context: context)
        } catch let error as PinholeError where error.code == .truncated && request.options.contains(.animated) {
            // An animation cut short plays its whole frames (never cached: the animation is not complete).
            guard let partial = try await truncatedAnimation(loaded.data, for: request, key: key, context: context)
            else { throw error }
            decoded = partial
        }
        let processStart = request.processors.isEmpty ? nil : context.metricsClock()
        var result = try await processed(decoded, for: request)
        context.record(.process, since: processStart)
        if result.animation == nil {
            result.animation = try await animation(
                of: loaded.data, first: result.image, for: request, key: key, context: context)
        }
        // Only bytes that decoded are worth keeping: a truncated or bogus body (an animation that ends early
        // included) never reaches the disk cache.
        if let metadata = loaded.pendingDiskEntry, configuration.diskCachePolicy.storesOriginalData(for: request),
            result.animation?.isComplete ?? true, loaded.claimDiskStore()
        {
            let storeStart = context.metricsClock()
            await storeDownload(loaded, metadata: metadata, for: dataKey.sourceKey)
            context.record(.store, since: storeStart)
        }
        // A reload's bytes are newer than every other size made before it.
        if request.options.contains(.reloadIgnoringCachedData), loaded.source == .network {
            await removeOlderVariants(of: key.image)
        }
        await storeEncodedImage(result, for: request, key: key, from: loaded, context: context)
        if key.writesMemoryCache {
            storeInMemory(result, for: key.image, freshUntil: loaded.freshUntil)
        }
        return LoadedImage(decoded: result, source: loaded.source)
    }

    /// After the disk cache's entry of `key` did not decode (`error`): removes it, so it is never served again, and
    /// loads the source once more past the disk cache.
    ///
    /// - Throws: `error` when the request may not load from the source (offline); the load's errors.
    func refetching(
        afterUndecodableEntry error: PinholeError, for request: ImageRequest, key: DataJobKey, context: JobContext
    ) async throws -> LoadedData {
        configuration.onDiagnostic?("disk cache: removed \(key.sourceKey), which does not decode: \(error)")
        await lazyDiskCache.cache()?.removeEntry(for: key.sourceKey)
        guard key.loadsFromSource else { throw error }
        let loaded = try await runDataJob(request, key: key.withoutDiskReads, context: context)
        try Task.checkCancellation()
        return loaded
    }
}
