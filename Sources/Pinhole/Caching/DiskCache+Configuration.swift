public import Foundation

extension DiskCache {
    /// Where a ``DiskCache`` keeps its files and how many bytes it may use.
    public struct Configuration: Sendable {
        /// The cache's own directory; created when missing. Files in it that are not entries or temporary
        /// files of the cache are left alone and not counted.
        public var directory: URL
        /// The most bytes the entry files may take (the sum of their sizes, headers included); a hard limit,
        /// enforced before each new entry becomes visible. 150 MB (150,000,000 bytes) by default.
        public var sizeLimit: Int

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - directory: the cache directory.
        ///   - sizeLimit: bytes; 150,000,000 by default.
        public init(directory: URL, sizeLimit: Int = 150_000_000) {
            self.directory = directory
            self.sizeLimit = sizeLimit
        }
    }

    /// A stored response: the original bytes and what HTTP said about them.
    public struct Entry: Sendable, Equatable {
        /// The original bytes, as downloaded.
        public var data: Data
        /// Validators and freshness of ``data``.
        public var metadata: Metadata

        public init(data: Data, metadata: Metadata) {
            self.data = data
            self.metadata = metadata
        }
    }

    /// Validators and freshness of a stored response, stored as JSON inside the entry file.
    public struct Metadata: Sendable, Equatable, Codable {
        /// The `ETag` header as received (weak `W/"…"` included), sent back verbatim as `If-None-Match`.
        public var etag: String?
        /// The `Last-Modified` header's text, sent back as `If-Modified-Since`.
        public var lastModified: String?
        /// The `Content-Type` header.
        public var contentType: String?
        /// When the response was stored (or last revalidated).
        public var storedAt: Date
        /// When the response stops being fresh (computed by the caller from the HTTP caching headers; the pipeline's
        /// rules: ``DiskCacheFreshness``); `nil` means no expiry was given and freshness is never checked
        /// (see ``isFresh(now:)``).
        public var expiresAt: Date?
        /// The response's `Cache-Control` header as received, kept so that a `304` without one updates the rest
        /// and so that ``mayServeStale`` can honour `no-cache` and `must-revalidate`; `nil` when there was none.
        public var cacheControl: String?
        /// The response's `Expires` header as received; `nil` when there was none.
        public var expires: String?
        /// The response's `Vary` header as received; `nil` when there was none (see ``matches(requestHeaders:)``).
        public var vary: String?
        /// The request's values of the headers ``vary`` names (names lowercased; a header the request did not
        /// send is absent); `nil` when there is no ``vary``.
        public var varyingRequestHeaders: [String: String]?
        /// The HTTP status of a stored failure (a cacheable error response, stored with an empty body, that answers
        /// as the same ``PinholeError/Code/httpStatus`` while fresh: ``DiskCacheFreshness``); `nil` for a stored
        /// success. A reader that does not know this field sees an empty body, which no decoder takes for an image.
        public var failureStatus: Int?

        /// Creates metadata; every argument but `storedAt` defaults to `nil`.
        public init(
            etag: String? = nil,
            lastModified: String? = nil,
            contentType: String? = nil,
            storedAt: Date = Date(),
            expiresAt: Date? = nil,
            cacheControl: String? = nil,
            expires: String? = nil
        ) {
            self.etag = etag
            self.lastModified = lastModified
            self.contentType = contentType
            self.storedAt = storedAt
            self.expiresAt = expiresAt
            self.cacheControl = cacheControl
            self.expires = expires
        }
    }
}
