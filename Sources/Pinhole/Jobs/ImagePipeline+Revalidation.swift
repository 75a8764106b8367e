import Foundation

extension ImagePipeline {
    /// The data job's answer after a `304 Not Modified` for the stale `cached` entry: its bytes, with the stored
    /// header fields and freshness updated from the `304` (RFC 9111 §4.3.4), or the entry removed when the
    /// updated response may no longer be stored
    /// (``DiskCacheFreshness/decision(revalidatedBy:previous:now:defaultFreshness:)``). An update that cannot be
    /// written is reported through ``Configuration/onDiagnostic`` as a failed store is (`DiskCacheFailureReport`),
    /// and the bytes are answered all the same.
    func revalidated(
        _ cached: DiskCache.Entry, by response: DataResponse, for request: ImageRequest, key: DataJobKey,
        in disk: DiskCache
    ) async -> LoadedData {
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
            // A task of its own, awaited: a caller's cancellation must not drop the update for every sharer.
            let update = Task { try await disk.updateMetadata(refreshed, for: key.sourceKey) }
            do {
                if try await update.value { lazyDiskCache.storeFailures.storeSucceeded() }
            } catch {
                // The old entry stays: it is revalidated again next time. Reported as a store is.
                lazyDiskCache.storeFailures.storeFailed("the headers of \(key.sourceKey) after a 304", error)
            }
            refreshedMetadata = refreshed
        case .doNotStore: await disk.removeEntry(for: key.sourceKey)
        }
        return LoadedData(
            data: cached.data, source: .diskCache, origin: .revalidated, pendingDiskEntry: nil,
            cachedMetadata: refreshedMetadata,
            freshUntil: refreshedMetadata?.expiresAt ?? Date())
    }

    /// The stale `cached` entry standing in for a load that failed with `error` (counted as a disk hit and a
    /// ``PipelineMetrics/staleHits``), or `nil` when it may not (``DiskCache/Metadata/mayServeStale``,
    /// ``meansOriginUnreachable(_:)``).
    func staleStandIn(_ cached: DiskCache.Entry?, after error: PinholeError) -> LoadedData? {
        // RFC 9111 §4.2.4: a stale copy may stand in when the origin cannot be reached, unless it forbids that.
        guard let cached, cached.metadata.mayServeStale, Self.meansOriginUnreachable(error) else { return nil }
        recorder.record {
            $0.diskHits += 1
            $0.staleHits += 1
        }
        // Stale: not kept in memory either, so the next request tries the origin again.
        return LoadedData(
            data: cached.data, source: .diskCache, origin: .staleDiskCache, pendingDiskEntry: nil, freshUntil: Date())
    }

    /// Whether `error` says the origin could not be reached (transport failure, a body cut short, timeout, `5xx`),
    /// the cases in which RFC 9111 lets a cache answer with a stale copy (§4.2.4; §4.3.3 for a `5xx`), or would
    /// not answer now (`429 Too Many Requests`, which asks to come back later as a `503` does).
    static func meansOriginUnreachable(_ error: PinholeError) -> Bool {
        switch error.code {
        case .networkFailure, .truncated, .timeout: true
        case .httpStatus: (500...599).contains(error.httpStatusCode ?? 0) || error.httpStatusCode == 429
        default: false
        }
    }
}
