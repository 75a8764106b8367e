import Foundation

extension DataResponse {
    /// The header fields a cache reads to decide whether, and how long, a failing response may be kept
    /// (``DiskCacheFreshness/decision(forFailure:now:defaultFreshness:)``).
    static let failureHeadFields: Set<String> = [
        "cache-control", "expires", "date", "age", "last-modified", "vary", "pragma", "location", "retry-after",
    ]
    /// The most bytes one kept field may have; a failure with a longer one keeps no head at all.
    static let failureHeadFieldLimit = 2048

    /// What a failing response's head may carry in an error (``PinholeError/httpResponse``): the status, the final
    /// URL and, for it and each redirect, only ``failureHeadFields``; `nil` when one of those fields is longer than
    /// ``failureHeadFieldLimit`` (then the failure is not stored: a shortened `Cache-Control` could lose its
    /// `no-store`). A hostile origin's headers (libcurl takes about 300 kB per response, on every hop) never stay
    /// in memory with the failures the pipeline keeps.
    package func failureHead() -> DataResponse? {
        func kept(_ fields: [String: String]) -> [String: String]? {
            var kept: [String: String] = [:]
            for (name, value) in fields where Self.failureHeadFields.contains(name) {
                guard value.utf8.count <= Self.failureHeadFieldLimit else { return nil }
                kept[name] = value
            }
            return kept
        }
        guard let headers = kept(headers) else { return nil }
        var hops: [Redirect] = []
        for redirect in redirects {
            guard let fields = kept(redirect.headers) else { return nil }
            hops.append(Redirect(url: redirect.url, statusCode: redirect.statusCode, headers: fields))
        }
        return DataResponse(data: Data(), statusCode: statusCode, headers: headers, url: url, redirects: hops)
    }
}
