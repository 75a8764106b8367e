import Foundation

extension DiskCacheFreshness {
    /// Error statuses a cache may reuse with a heuristic lifetime when they carry no explicit freshness
    /// (RFC 9110 §15.1): `404`, `405`, `410`, `414` and `501`.
    static let heuristicallyCacheableFailures: Set<Int> = [404, 405, 410, 414, 501]

    /// Client-error statuses that say nothing of the resource, only of this moment: `408 Request Timeout` and
    /// `429 Too Many Requests`. Neither is stored, whatever its freshness, nor removes a stored image (RFC 6585 §4:
    /// a 429 is never stored by a cache: https://www.rfc-editor.org/rfc/rfc6585#section-4).
    static let momentaryFailures: Set<Int> = [408, 429]

    /// The longest a failure is stored, whatever its freshness says: one day, in seconds. A CDN's blanket
    /// `max-age` of a year would otherwise pin a passing `503` or a withdrawn-then-restored image for that year.
    static let maxFailureLifetime: TimeInterval = 86_400

    /// `seconds` as a `Duration`, 0 for a negative or NaN value and at most ``maxFailureLifetime`` (a converted
    /// `Double` past `Int64`'s range traps: seen with a stored entry's far `expiresAt`).
    static func duration(seconds: TimeInterval) -> Duration {
        guard seconds > 0 else { return .zero }
        return .milliseconds(Int64(min(seconds, maxFailureLifetime) * 1000))
    }

    /// The verdict on a failing HTTP response (`error`'s ``PinholeError/httpResponse``) received at `now`: store it,
    /// with no body, when its status and headers allow (RFC 9111 §3, §4.2.2), so that the same error answers
    /// without the origin while it is fresh.
    ///
    /// - A heuristically cacheable status (``heuristicallyCacheableFailures``) is stored for its explicit freshness
    ///   (`max-age`, else `Expires`), or, with neither, for the heuristic one when it has a `Last-Modified`
    ///   (10 % of its age, capped by the default); with neither nor a `Last-Modified` it is not stored.
    /// - Any other status (`403`, `500`, `503`…) is stored only for an explicit freshness.
    /// - Never for longer than ``maxFailureLifetime`` (a day); never a `408` or `429` (``momentaryFailures``).
    /// - `no-store` and `Vary: *` are never stored; a lifetime of 0 (`no-cache`, `max-age=0`, an expired or invalid
    ///   `Expires`) is not stored either: it could never answer. The redirects on the way limit the lifetime as they
    ///   do a success's (``limited(_:by:now:defaultFreshness:)``).
    ///
    /// `nil` when `error` is not an HTTP status with a response head.
    static func decision(forFailure error: PinholeError, now: Date = Date(), defaultFreshness: Duration) -> Decision? {
        guard error.code == .httpStatus, let response = error.httpResponse else { return nil }
        let headers = response.headers
        let directives = HTTPCacheControl(headers["cache-control"])
        if let reason = reasonNotToStore(directives, vary: headers["vary"]) { return .doNotStore(reason: reason) }
        let status = response.statusCode
        if momentaryFailures.contains(status) {
            return .doNotStore(reason: "HTTP \(status), which says nothing of the resource (RFC 6585 §4 for a 429)")
        }
        let explicit = directives.maxAge != .absent || headers["expires"] != nil
        let heuristic = heuristicallyCacheableFailures.contains(status)
        guard explicit || (heuristic && HTTPDate.parse(headers["last-modified"]) != nil) else {
            return .doNotStore(reason: "HTTP \(status) without explicit freshness")
        }
        let remaining = remainingLifetime(
            directives, expires: headers["expires"], lastModified: headers["last-modified"], date: headers["date"],
            age: headers["age"], heuristicallyCacheable: heuristic, now: now, defaultFreshness: defaultFreshness)
        guard remaining > 0 else { return .doNotStore(reason: "HTTP \(status) that is not fresh") }
        var metadata = DiskCache.Metadata(
            storedAt: now, expiresAt: now.addingTimeInterval(min(remaining, maxFailureLifetime)),
            cacheControl: headers["cache-control"],
            expires: headers["expires"])
        metadata.failureStatus = status
        let verdict = limited(.store(metadata), by: response.redirects, now: now, defaultFreshness: defaultFreshness)
        if case .store(let limited) = verdict, !limited.isFresh(now: now) {
            return .doNotStore(reason: "HTTP \(status) after a redirect that is not fresh")
        }
        return verdict
    }

    /// How long the memory side may keep `error` (``ImagePipeline/Configuration/failureMemoryTTL``, `ttl`), or `nil`
    /// when it may not: a missing file; an HTTP status that is heuristically cacheable
    /// (``heuristicallyCacheableFailures``) or explicitly fresh (`max-age`, `Expires`), bounded by that explicit
    /// freshness when `followsHTTPFreshness`, and never one that says `no-store` or `Vary: *`; and a 429 or 503
    /// for at least the wait its `Retry-After` asks for (``HTTPRetryAfter``), whatever the rest of its head says
    /// (only its status and its wait are reused, so that a rate-limited origin is not asked again before it
    /// said). Never a cancellation, a timeout, a transport failure, a local limit, a `5xx` without freshness or a
    /// wait, or a `429` without a wait (its freshness does not count: RFC 6585 §4): those say nothing lasting
    /// about the source. Always at most `ttl`.
    static func memoryLifetime(of error: PinholeError, ttl: Duration, followsHTTPFreshness: Bool, now: Date = Date())
        -> Duration?
    {
        guard ttl > .zero else { return nil }
        let fresh = freshLifetime(of: error, ttl: ttl, followsHTTPFreshness: followsHTTPFreshness, now: now)
        let limit = min(Int(clamping: ttl.components.seconds), 1_000_000_000) + 1
        guard let wait = HTTPRetryAfter.seconds(of: error, now: now, limit: limit) else { return fresh }
        return min(ttl, max(fresh ?? .zero, .seconds(wait)))
    }

    /// ``memoryLifetime(of:ttl:followsHTTPFreshness:now:)`` by the status and the freshness alone.
    private static func freshLifetime(of error: PinholeError, ttl: Duration, followsHTTPFreshness: Bool, now: Date)
        -> Duration?
    {
        switch error.code {
        case .fileNotFound: return ttl
        case .httpStatus where error.httpStatusCode != 429: break
        default: return nil
        }
        let heuristic = heuristicallyCacheableFailures.contains(error.httpStatusCode ?? 0)
        guard let response = error.httpResponse else { return heuristic ? ttl : nil }
        let headers = response.headers
        let directives = HTTPCacheControl(headers["cache-control"])
        if reasonNotToStore(directives, vary: headers["vary"]) != nil { return nil }
        let explicit = directives.noCache || directives.maxAge != .absent || headers["expires"] != nil
        guard explicit else { return heuristic ? ttl : nil }
        let remaining = remainingLifetime(
            directives, expires: headers["expires"], lastModified: nil, date: headers["date"], age: headers["age"],
            heuristicallyCacheable: false, now: now, defaultFreshness: .zero)
        guard followsHTTPFreshness else { return heuristic || remaining > 0 ? ttl : nil }
        guard remaining > 0 else { return nil }
        return min(ttl, duration(seconds: remaining))
    }
}
