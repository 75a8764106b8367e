public import Foundation

extension DataResponse {
    /// One redirect on the way to a response: the URL that answered with it, its status and its header fields.
    ///
    /// A redirect is a response of its own, with its own cacheability (RFC 9110 §15.4, RFC 9111 §4): a `301` or
    /// `308` without explicit freshness may be reused heuristically, a `302`, `303` or `307` without it may not, and
    /// one with `Cache-Control: no-store` may not be stored at all. The pipeline's disk cache reads these fields
    /// to decide how long the bytes stored under the requested URL stay fresh.
    public struct Redirect: Sendable, Hashable {
        /// The URL the redirect answered (the requested URL for the first one, the previous target after that).
        public var url: URL
        /// The `3xx` status.
        public var statusCode: Int
        /// Header fields with lowercased names (`location`, `cache-control`, `expires`, `date`, `age`, …).
        public var headers: [String: String]

        public init(url: URL, statusCode: Int, headers: [String: String] = [:]) {
            self.url = url
            self.statusCode = statusCode
            self.headers = headers
        }
    }
}
