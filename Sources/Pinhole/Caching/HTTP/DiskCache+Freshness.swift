public import Foundation

extension DiskCache.Metadata {
    /// Whether the stored response may be used without revalidation at `now`: `true` before ``expiresAt``,
    /// `false` from it on, and `true` when there is no ``expiresAt``.
    public func isFresh(now: Date) -> Bool {
        guard let expiresAt else { return true }
        return now < expiresAt
    }

    /// Whether the stored response, once stale, may still be used when the origin cannot be reached or the caller
    /// may not load: `false` when its `Cache-Control` says `no-cache` or `must-revalidate` (``DiskCacheFreshness``).
    public var mayServeStale: Bool {
        let directives = HTTPCacheControl(cacheControl)
        return !directives.noCache && !directives.mustRevalidate
    }

    /// Whether the stored response may answer at `now` without asking the origin: when it is fresh, or, for a
    /// caller that may not load (`offline`: ``ImageRequest/Options/returnCacheDataDontLoad``, a disconnected
    /// cache), when it is stale and ``mayServeStale`` (``DiskCacheFreshness``).
    public func mayAnswer(now: Date, offline: Bool) -> Bool {
        isFresh(now: now) || (offline && mayServeStale)
    }
}
