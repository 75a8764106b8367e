import Foundation

/// How long original bytes stay fresh in the disk cache, from the response's HTTP caching headers
/// (RFC 9111: `Cache-Control: max-age`, `no-cache`, `no-store`, `Expires`), with a default for responses
/// that say nothing.
enum DiskCacheFreshness {
    /// Metadata to store for `response`: validators (`ETag`, `Last-Modified`), content type and expiry.
    ///
    /// - `no-cache` or `max-age=0`: stale at once (revalidated on every use when a validator exists).
    /// - `max-age=N`: fresh for N seconds. `Expires`: fresh until that date.
    /// - nothing: fresh for `defaultFreshness`.
    /// For a `304`, headers the response lacks are taken from `previous`.
    static func metadata(for response: DataResponse, previous: DiskCache.Metadata?, defaultFreshness: Duration) -> DiskCache.Metadata {
        let now = Date()
        let headers = response.headers
        let cacheControl = (headers["cache-control"] ?? "").lowercased()
        let directives = cacheControl.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var expiresAt: Date
        if directives.contains("no-cache") || directives.contains("no-store") {
            expiresAt = now
        } else if let maxAge = directives.first(where: { $0.hasPrefix("max-age=") }),
            let seconds = Double(maxAge.dropFirst("max-age=".count))
        {
            expiresAt = now.addingTimeInterval(max(0, seconds))
        } else if let expires = headers["expires"], let date = httpDate(expires) {
            expiresAt = date
        } else {
            expiresAt = now.addingTimeInterval(Double(defaultFreshness.components.seconds))
        }
        if expiresAt < now { expiresAt = now }
        return DiskCache.Metadata(
            etag: headers["etag"] ?? previous?.etag,
            lastModified: headers["last-modified"] ?? previous?.lastModified,
            contentType: headers["content-type"] ?? previous?.contentType,
            storedAt: now,
            expiresAt: expiresAt
        )
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
