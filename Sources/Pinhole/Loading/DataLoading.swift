public import Foundation

/// Fetches the original bytes of an image: over HTTP, from a file, or from anywhere a custom loader reaches.
///
/// A loader must not hold a thread while it waits, must stop its transfer when the calling task is cancelled,
/// and must throw `CancellationError` (never `URLError.cancelled`) in that case.
///
/// - Throws: ``PinholeError`` (``PinholeError/Code/httpStatus``, ``PinholeError/Code/timeout``,
///   ``PinholeError/Code/dataTooLarge``, ``PinholeError/Code/notAnImage``, ``PinholeError/Code/networkFailure``,
///   ``PinholeError/Code/fileNotFound``, …) or `CancellationError`.
public protocol DataLoading: Sendable {
    /// Loads the bytes `request` names. Safe from any isolation.
    func loadData(for request: DataRequest) async throws -> DataResponse

    /// This loader as an untrusted ``SourcePolicy`` needs it: checking each address before connecting, within
    /// the byte limit, files under the root (``SourceRestriction``). The default returns `self` unchanged.
    func restricted(by restriction: SourceRestriction) -> any DataLoading
}

/// What to fetch, the validators of a cached copy for HTTP revalidation, and per-request loading options.
///
/// Every option is optional; the defaults keep the loader's configured behaviour.
public struct DataRequest: Sendable {
    /// `http`, `https` or `file`.
    public var url: URL
    /// Sent as `If-None-Match` (the cached entry's ETag).
    public var ifNoneMatch: String?
    /// Sent as `If-Modified-Since` (the cached entry's `Last-Modified` text).
    public var ifModifiedSince: String?
    /// Extra HTTP request headers for this request only (for example `Authorization`), sent after the
    /// loader's configured headers (a same-named header here wins). Names are HTTP tokens; a name or value
    /// with a line break fails with ``PinholeError/Code/invalidRequest``. Empty by default; ignored for files.
    ///
    /// - Note: After a redirect to another origin (scheme, host or port), `PinholeCurl`'s loader sends only a few
    ///   harmless headers (`Accept`, `User-Agent`, validators…); `Authorization`, `Cookie` and custom headers
    ///   such as `X-Api-Key` stay with the request's origin.
    public var headers: [String: String] = [:]
    /// The whole transfer's deadline for this request (redirects included); `nil` uses the loader's configured
    /// deadline (`PinholeCurl`'s `HTTPDataLoader.Configuration.deadline`). Ignored for files.
    public var timeout: Duration? = nil
    /// Called on the loader's thread as bytes arrive (at most every 64 KiB or 50 ms, and once at the end):
    /// bytes received so far and the expected total (`Content-Length`) when known. At the end, after the last
    /// byte of a successful response, both are the body's size (0 for an empty body or a `304`). Must not block.
    public var onProgress: (@Sendable (_ receivedBytes: Int, _ expectedBytes: Int?) -> Void)? = nil
    /// Called on the loader's thread with a copy of all bytes received so far, at most every 64 KiB
    /// (for progressive previews); `nil` by default (no copies are made). Must not block.
    public var onPartialData: (@Sendable (Data) -> Void)? = nil

    public init(
        url: URL, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil, headers: [String: String] = [:],
        timeout: Duration? = nil
    ) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.headers = headers
        self.timeout = timeout
    }
}

/// The bytes and what the source said about them.
public struct DataResponse: Sendable, Hashable {
    /// The body; empty for a `304 Not Modified`.
    public var data: Data
    /// The HTTP status (200…299, or 304 for a successful revalidation); 200 for files. A failing response's head
    /// (``PinholeError/httpResponse``) has its error status.
    public var statusCode: Int
    /// Response headers with lowercased names (`etag`, `last-modified`, `cache-control`, `content-type`, …).
    public var headers: [String: String]
    /// The URL the bytes finally came from (after redirects).
    public var url: URL
    /// The redirects followed from the requested URL to ``url``, in order (the first answered the requested
    /// URL); empty when there were none. A cache that stores the response under the requested URL keeps it
    /// only as long as every one of them allows (``Redirect``).
    public var redirects: [Redirect]
    /// What the loader measured of the transfer (phases, bytes, redirects); `nil` when it measured nothing.
    /// `PinholeCurl`'s loader gives libcurl's timings; the file and `data:` loaders give the bytes read.
    public var metrics: TransferMetrics?

    public init(
        data: Data, statusCode: Int = 200, headers: [String: String] = [:], url: URL, redirects: [Redirect] = [],
        metrics: TransferMetrics? = nil
    ) {
        self.data = data
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        self.redirects = redirects
        self.metrics = metrics
    }

    /// `true` for `304 Not Modified`: the cached copy is still good.
    public var isNotModified: Bool { statusCode == 304 }
}

/// Routes each request by URL scheme: `file` to a file loader, `http`/`https` to an HTTP loader.
///
/// The core has no HTTP client: on Linux, `PinholeCurl`'s `HTTPDataLoader` is the HTTP loader
/// (`SchemeRoutingDataLoader(http: HTTPDataLoader())`, what `ImagePipeline.shared` uses).
public struct SchemeRoutingDataLoader: DataLoading {
    /// Handles `http` and `https`; `nil` refuses them.
    public let http: (any DataLoading)?
    /// Handles `file` URLs.
    public let file: any DataLoading

    /// A router over `http` (`nil` by default: HTTP(S) is refused) and `file` (a ``FileDataLoader``).
    public init(http: (any DataLoading)? = nil, file: any DataLoading = FileDataLoader()) {
        self.http = http
        self.file = file
    }

    /// - Throws: ``PinholeError/Code/invalidRequest`` for other schemes, and for HTTP(S) without an HTTP loader;
    ///   otherwise what the chosen loader throws.
    public func loadData(for request: DataRequest) async throws -> DataResponse {
        switch request.url.scheme?.lowercased() {
        case "http", "https":
            guard let http else {
                throw PinholeError(
                    .invalidRequest,
                    "no HTTP loader for \(request.url.absoluteString): give the pipeline one "
                        + "(PinholeCurl's HTTPDataLoader)")
            }
            return try await http.loadData(for: request)
        case "file":
            return try await file.loadData(for: request)
        default:
            throw PinholeError(.invalidRequest, "unsupported URL scheme in \(request.url.absoluteString)")
        }
    }
}
