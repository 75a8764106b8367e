import Foundation

extension DiskCacheFreshness {
    /// Status codes a cache may reuse with a heuristic lifetime when they carry no explicit freshness
    /// (RFC 9110 §15.1), among the redirects: `300`, `301` and `308`. `302`, `303` and `307` are not.
    static let heuristicallyCacheableRedirects: Set<Int> = [300, 301, 308]

    /// `verdict` on the final response, limited by the `redirects` that led to it (RFC 9111 §4): the entry is
    /// stored under the requested URL, whose own answer was the first redirect, so it stays fresh only as long as
    /// every redirect allows; a redirect that may not be stored means the entry may not be either.
    static func limited(
        _ verdict: Decision, by redirects: [DataResponse.Redirect], now: Date, defaultFreshness: Duration
    ) -> Decision {
        guard case .store(var metadata) = verdict, !redirects.isEmpty else { return verdict }
        for redirect in redirects {
            let headers = redirect.headers
            let directives = HTTPCacheControl(headers["cache-control"])
            if let reason = reasonNotToStore(directives, vary: headers["vary"]) {
                let hop = "the \(redirect.statusCode) from \(redirect.url.absoluteString)"
                return .doNotStore(reason: "\(reason) on \(hop)")
            }
            let remaining = remainingLifetime(
                directives, expires: headers["expires"], lastModified: headers["last-modified"],
                date: headers["date"], age: headers["age"],
                heuristicallyCacheable: heuristicallyCacheableRedirects.contains(redirect.statusCode),
                now: now, defaultFreshness: defaultFreshness)
            // A hop that forbids stale use forbids it for the entry too (offline, unreachable origin): its
            // directives join the stored Cache-Control, which is what those paths read.
            for (forbids, directive) in [
                (directives.noCache, "no-cache"), (directives.mustRevalidate, "must-revalidate"),
            ]
            where forbids && !HTTPCacheControl(metadata.cacheControl).contains(directive) {
                metadata.cacheControl = [metadata.cacheControl, directive].compactMap { $0 }.joined(separator: ", ")
            }
            let expiry = now.addingTimeInterval(remaining)
            if let expiresAt = metadata.expiresAt, expiresAt <= expiry { continue }
            metadata.expiresAt = expiry
        }
        return .store(metadata)
    }
}
