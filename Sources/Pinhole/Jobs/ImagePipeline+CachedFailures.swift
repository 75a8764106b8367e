import Foundation

extension ImagePipeline {
    /// The memory side's failure for `request`'s source within ``Configuration/failureMemoryTTL``, or `nil` (none, or
    /// the request skips cached copies: ``ImageRequest/Options/reloadIgnoringCachedData``,
    /// ``ImageRequest/Options/disableMemoryCacheReads``). Not counted yet: see ``answer(with:)``.
    func recentFailure(for request: ImageRequest, key: DataJobKey) -> PinholeError? {
        guard !request.options.contains(.reloadIgnoringCachedData),
            !request.options.contains(.disableMemoryCacheReads)
        else { return nil }
        return recentFailures[key.sourceKey]
    }

    /// `failure`, kept in memory, answers a load: counted as a ``PipelineMetrics/failureHits``.
    func answer(with failure: PinholeError) -> PinholeError {
        recorder.record { $0.failureHits += 1 }
        return failure
    }

    /// Whether a kept `failure` is the wait an origin asked for (a 429 or 503 with `Retry-After`,
    /// ``HTTPRetryAfter``) rather than a failure of the source: it keeps the origin from being asked, not the disk
    /// cache from answering, so the data job reads the disk first and a stale copy stands in while it lasts.
    static func isOriginWait(_ failure: PinholeError) -> Bool {
        failure.httpResponse?.headers["retry-after"] != nil
    }

    /// After a stale copy stood in for a load that failed with `error`: keeps the wait the origin asked for, if
    /// any, so that until it ends the copy stands in without asking the origin again.
    func rememberWait(of error: PinholeError, for request: ImageRequest, key: DataJobKey) {
        let limit = min(Int(clamping: configuration.failureMemoryTTL.components.seconds), 1_000_000_000) + 1
        guard let wait = HTTPRetryAfter.seconds(of: error, now: Date(), limit: limit) else { return }
        rememberInMemory(error, for: request, key: key, ttl: min(configuration.failureMemoryTTL, .seconds(wait)))
    }

    /// The error a stored failure (``DiskCache/Metadata/failureStatus``) answers with while it may answer without
    /// the origin (``DiskCache/Metadata/mayAnswer(now:offline:)``): the ``PinholeError/Code/httpStatus`` the origin
    /// gave, with its status. `nil` once it is stale: then the source is fetched again, unconditionally.
    func failureFromDisk(_ cached: DiskCache.Entry, for request: ImageRequest, key: DataJobKey) -> PinholeError? {
        guard let status = cached.metadata.failureStatus,
            cached.metadata.mayAnswer(now: Date(), offline: !key.loadsFromSource)
        else { return nil }
        let error = PinholeError(
            .httpStatus, "HTTP \(status) for \(request.url.absoluteString) (a failure stored in the disk cache)",
            httpStatusCode: status)
        recorder.record { $0.failureHits += 1 }
        if let expiresAt = cached.metadata.expiresAt {
            let remaining = DiskCacheFreshness.duration(seconds: expiresAt.timeIntervalSinceNow)
            rememberInMemory(error, for: request, key: key, ttl: min(remaining, configuration.failureMemoryTTL))
        }
        return error
    }

    /// Keeps a load's `error` where the next request finds it: in memory for a short while
    /// (``DiskCacheFreshness/memoryLifetime(of:ttl:followsHTTPFreshness:now:)``), and on disk, with no body, when
    /// HTTP lets the failing response be stored (``DiskCacheFreshness/decision(forFailure:now:defaultFreshness:)``).
    /// A `4xx` that may not be stored removes the entry it answered for (a stale success the origin no longer has),
    /// but for a `408` or `429`, which say nothing of the resource (``DiskCacheFreshness/momentaryFailures``).
    func remember(
        _ error: PinholeError, for request: ImageRequest, key: DataJobKey, cached: DiskCache.Entry?, in disk: DiskCache?
    ) async {
        if let ttl = DiskCacheFreshness.memoryLifetime(
            of: error, ttl: configuration.failureMemoryTTL,
            followsHTTPFreshness: configuration.memoryCacheFollowsHTTPFreshness)
        {
            rememberInMemory(error, for: request, key: key, ttl: ttl)
        }
        guard let disk, key.writesDiskCache,
            let verdict = DiskCacheFreshness.decision(
                forFailure: error, defaultFreshness: configuration.diskCacheDefaultFreshness)
        else { return }
        switch verdict {
        case .store(let metadata):
            let varying = metadata.varying(error.httpResponse?.headers["vary"], requestHeaders: request.headers)
            await storeOriginal(Data(), metadata: varying, for: key.sourceKey)
        case .doNotStore:
            let status = error.httpStatusCode ?? 0
            if cached != nil, (400...499).contains(status), !DiskCacheFreshness.momentaryFailures.contains(status) {
                await disk.removeEntry(for: key.sourceKey)
            }
        }
    }

    /// After a successful load of `key`'s source: the failures kept for it go. On disk a failure entry is removed
    /// when the policy will not store the original over it (a reload skipped it, or it was read and was stale).
    func forgetFailures(of request: ImageRequest, key: DataJobKey, cached: DiskCache.Entry?, in disk: DiskCache?)
        async
    {
        _ = recentFailures.removeValue(for: key.sourceKey)
        guard let disk, key.writesDiskCache, !configuration.diskCachePolicy.storesOriginalData(for: request),
            cached?.metadata.failureStatus != nil || !key.readsDiskCache
        else { return }
        await disk.removeEntry(for: key.sourceKey)
    }

    /// Keeps `error` without its response head (its decisions are made) but for the wait a 429 or 503 asked for
    /// (``HTTPRetryAfter``), kept as the date it ends by this machine's clock so that a later answer counts down
    /// (a server passes it on; ``isOriginWait(_:)``): what a later load is answered with.
    private func rememberInMemory(_ error: PinholeError, for request: ImageRequest, key: DataJobKey, ttl: Duration) {
        guard ttl > .zero, !request.options.contains(.disableMemoryCacheWrites) else { return }
        let now = Date()
        let head = error.httpResponse.flatMap { response in
            HTTPRetryAfter.seconds(of: error, now: now, limit: 86_400).map { wait in
                DataResponse(
                    data: Data(), statusCode: response.statusCode,
                    headers: ["retry-after": HTTPRetryAfter.date(endingWaitOf: wait, from: now)], url: response.url)
            }
        }
        let kept = PinholeError(
            error.code, error.message, httpStatusCode: error.httpStatusCode, detectedType: error.detectedType,
            httpResponse: head)
        recentFailures.insert(kept, for: key.sourceKey, cost: 0, ttl: ttl)
    }
}
