import Foundation

/// The HTTP caching rules of the pipeline's disk cache, written here once: what a private cache (RFC 9111) may
/// store, how long an entry answers without asking the origin, and when a stale one may stand in. They apply to
/// `http(s)` sources, whose original bytes are stored under ``ImageRequest/sourceKey``; an encoded thumbnail
/// (``DiskCachePolicy``) keeps the freshness of the original it was made from.
///
/// - Storing: `Cache-Control: no-store` and `Vary: *` are never stored (and the entry they replace is removed);
///   nor are bytes that did not decode.
/// - Freshness lifetime, first that applies: `no-cache` → 0 (stored, revalidated before every use);
///   `max-age=N` → N s (it beats `Expires`; an invalid or conflicting `max-age` → 0);
///   `Expires` → `Expires − Date` (an `Expires` that is not a valid HTTP date, such as `0` or `-1`, → 0: already
///   expired); with no explicit freshness, heuristic: 10 % of `Date − Last-Modified`, at most
///   ``ImagePipeline/Configuration/diskCacheDefaultFreshness``; else that default.
/// - Age: the response's age when received (`Age`, or `now − Date` if larger) is subtracted from the lifetime.
/// - Vary: an entry answers only a request with the values the stored request had for the headers its `Vary`
///   names (an absent header matches an absent one; ``DiskCache/Metadata/matches(requestHeaders:)``).
/// - Redirects: the entry is stored under the requested URL, so it is fresh only as long as each redirect on the way
///   allows too (§4, RFC 9110 §15.4): the shortest remaining lifetime of the final response and every redirect
///   wins. A redirect's lifetime is computed like any response's, except that without explicit freshness only
///   `300`, `301` and `308` are heuristically cacheable (RFC 9110 §15.1); `302`, `303` and `307` then give 0
///   (stored, revalidated through the chain before every use). A redirect with `no-store` or `Vary: *` means do
///   not store; one with `no-cache` or `must-revalidate` passes that on to the entry.
/// - Revalidation: a fresh entry answers without asking the origin (``DiskCache/Metadata/isFresh(now:)``); a
///   stale one is revalidated with its validators sent back verbatim (`If-None-Match` with the `ETag` as received,
///   weak `W/"…"` included; `If-Modified-Since` with `Last-Modified`); a `304` updates the stored headers with its
///   own (§4.3.4) and the freshness is computed again; a `200` replaces the entry.
/// - Stale use: when revalidation cannot reach the origin (transport failure, a body cut short, timeout, `5xx`),
///   the stale entry answers instead (§4.2.4, §4.3.3), and a request that may not load
///   (``ImageRequest/Options/returnCacheDataDontLoad``) takes a stale entry; neither when the entry said
///   `no-cache` or `must-revalidate` (§5.2.2.2, §5.2.2.4; ``DiskCache/Metadata/mayServeStale``).
/// - Failures (§3, §4.2.2): an error status is stored with no body under the same key, marked by
///   ``DiskCache/Metadata/failureStatus``, and answers as the same ``PinholeError/Code/httpStatus`` while fresh.
///   `404`, `405`, `410`, `414` and `501` are stored for their explicit freshness, or without one for the heuristic
///   one when they have a `Last-Modified`; any other status only for an explicit `max-age` or `Expires`. `no-store`,
///   `Vary: *` and a lifetime of 0 are not stored; `Vary` and redirects apply as to a success. A stale failure is
///   fetched again in full; a `4xx` that may not be stored removes the entry it answered for; a success replaces
///   it. ``ImageRequest/Options/reloadIgnoringCachedData`` skips it (``decision(forFailure:now:defaultFreshness:)``;
///   the memory side: ``ImagePipeline/Configuration/failureMemoryTTL``).
///
/// Source: https://www.rfc-editor.org/rfc/rfc9111 (§3 storing, §4.1 Vary, §4.2 freshness, §4.2.3 age, §4.2.2
/// heuristics, §4.2.4 stale responses, §4.3 validation, §5.3 `Expires`),
/// https://www.rfc-editor.org/rfc/rfc9110#section-15.1 (heuristically cacheable status codes).
///
/// Public only as the page of these rules: its members are internal.
public enum DiskCacheFreshness {
    /// The verdict on one response.
    enum Decision: Sendable, Equatable {
        /// Store (or keep) the entry with this metadata.
        case store(DiskCache.Metadata)
        /// Do not store; remove any entry the response replaces. The reason is for diagnostics.
        case doNotStore(reason: String)
    }

    /// The verdict on a full (`200`) response received at `now`, and the redirects that led to it.
    static func decision(for response: DataResponse, now: Date = Date(), defaultFreshness: Duration) -> Decision {
        let headers = response.headers
        let verdict = decision(
            cacheControl: headers["cache-control"], expires: headers["expires"], vary: headers["vary"],
            etag: headers["etag"], lastModified: headers["last-modified"], contentType: headers["content-type"],
            date: headers["date"], age: headers["age"], now: now, defaultFreshness: defaultFreshness)
        return limited(verdict, by: response.redirects, now: now, defaultFreshness: defaultFreshness)
    }

    /// The verdict after a `304 Not Modified` for an entry with `previous` metadata: the stored header fields are
    /// updated with those the `304` carries (RFC 9111 §4.3.4), and freshness is computed from the result.
    static func decision(
        revalidatedBy response: DataResponse, previous: DiskCache.Metadata, now: Date = Date(),
        defaultFreshness: Duration
    ) -> Decision {
        let headers = response.headers
        let verdict = decision(
            cacheControl: headers["cache-control"] ?? previous.cacheControl,
            expires: headers["expires"] ?? previous.expires, vary: headers["vary"],
            etag: headers["etag"] ?? previous.etag, lastModified: headers["last-modified"] ?? previous.lastModified,
            contentType: headers["content-type"] ?? previous.contentType,
            date: headers["date"], age: headers["age"], now: now, defaultFreshness: defaultFreshness)
        // The redirects are those of this revalidation: the chain as it is now.
        return limited(verdict, by: response.redirects, now: now, defaultFreshness: defaultFreshness)
    }

    private static func decision(
        cacheControl: String?, expires: String?, vary: String?, etag: String?, lastModified: String?,
        contentType: String?, date: String?, age: String?, now: Date, defaultFreshness: Duration
    ) -> Decision {
        let directives = HTTPCacheControl(cacheControl)
        if let reason = reasonNotToStore(directives, vary: vary) { return .doNotStore(reason: reason) }
        let remaining = remainingLifetime(
            directives, expires: expires, lastModified: lastModified, date: date, age: age,
            heuristicallyCacheable: true, now: now, defaultFreshness: defaultFreshness)
        return .store(
            DiskCache.Metadata(
                etag: etag, lastModified: lastModified, contentType: contentType, storedAt: now,
                expiresAt: now.addingTimeInterval(remaining), cacheControl: cacheControl, expires: expires))
    }

    /// Why a response with these fields may not be stored (`no-store`, `Vary: *`), or `nil` when it may.
    static func reasonNotToStore(_ directives: HTTPCacheControl, vary: String?) -> String? {
        if directives.noStore { return "Cache-Control: no-store" }
        if let vary, vary.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            return "Vary: *"
        }
        return nil
    }

    /// Seconds a response received at `now` stays fresh: its freshness lifetime minus its age when received
    /// (§4.2.3, with the response delay taken as 0: the request time is not kept), at least 0.
    /// `heuristicallyCacheable` says whether, without explicit freshness, a heuristic lifetime applies (else 0).
    static func remainingLifetime(
        _ directives: HTTPCacheControl, expires: String?, lastModified: String?, date: String?, age: String?,
        heuristicallyCacheable: Bool, now: Date, defaultFreshness: Duration
    ) -> TimeInterval {
        let dateValue = HTTPDate.parse(date) ?? now
        let apparentAge = max(0, now.timeIntervalSince(dateValue))
        var ageValue = 0.0
        if case .seconds(let seconds) = HTTPCacheControl.deltaSeconds(age) { ageValue = Double(seconds) }
        let initialAge = max(apparentAge, ageValue)
        let lifetime = freshnessLifetime(
            directives, expires: expires, lastModified: lastModified, dateValue: dateValue,
            heuristicallyCacheable: heuristicallyCacheable, defaultFreshness: defaultFreshness)
        return max(0, lifetime - initialAge)
    }

    /// The freshness lifetime in seconds (§4.2.1, §4.2.2).
    private static func freshnessLifetime(
        _ directives: HTTPCacheControl, expires: String?, lastModified: String?, dateValue: Date,
        heuristicallyCacheable: Bool, defaultFreshness: Duration
    ) -> TimeInterval {
        if directives.noCache { return 0 }
        switch directives.maxAge {
        case .seconds(let seconds): return TimeInterval(seconds)
        case .invalid: return 0
        case .absent: break
        }
        if let expires {
            guard let expiry = HTTPDate.parse(expires) else { return 0 }  // §5.3: invalid means already expired
            return max(0, expiry.timeIntervalSince(dateValue))
        }
        guard heuristicallyCacheable else { return 0 }
        let configured =
            Double(defaultFreshness.components.seconds)
            + Double(defaultFreshness.components.attoseconds) / 1e18
        if let modified = HTTPDate.parse(lastModified), modified <= dateValue {
            return min(configured, 0.1 * dateValue.timeIntervalSince(modified))
        }
        return configured
    }
}
