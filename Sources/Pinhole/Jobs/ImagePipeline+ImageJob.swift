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
            // A stored entry that does not decode is removed, never served again, and fetched anew once.
            configuration.onDiagnostic?("disk cache: removed \(dataKey.sourceKey), which does not decode: \(error)")
            await lazyDiskCache.cache()?.removeEntry(for: dataKey.sourceKey)
            guard dataKey.loadsFromSource else { throw error }
            loaded = try await runDataJob(request, key: dataKey.withoutDiskReads, context: context)
            try Task.checkCancellation()
            context.recordSource(loaded.origin)
            decoded = try await decodeUnderLimit(loaded.data, for: request, context: context)
        }
        let processStart = request.processors.isEmpty ? nil : context.metricsClock()
        let result = try await processed(decoded, for: request)
        context.record(.process, since: processStart)
        // Only bytes that decoded are worth keeping: a truncated or bogus body never reaches the disk cache.
        if let metadata = loaded.pendingDiskEntry, configuration.diskCachePolicy.storesOriginalData(for: request),
            loaded.claimDiskStore()
        {
            let storeStart = context.metricsClock()
            await storeOriginal(loaded.data, metadata: metadata, for: dataKey.sourceKey)
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
}
