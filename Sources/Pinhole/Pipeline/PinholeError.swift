/// The error every Pinhole component throws for bad input, bad networks and exhausted limits.
///
/// Cancellation is never a `PinholeError`: a cancelled caller gets `CancellationError`.
///
/// Switch on ``code`` (an open set: new codes do not break callers) and show ``message`` to people.
/// ``Code/kind`` is a stable snake_case name for logs and JSON (`"http_status"`, `"too_many_pixels"`, …).
public struct PinholeError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable class.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Value: String, Sendable, Hashable {
            case emptyData = "empty_data"
            case notAnImage = "not_an_image"
            case unsupportedFormat = "unsupported_format"
            case decodingFailed = "decoding_failed"
            case decodingTimedOut = "decoding_timed_out"
            case truncated
            case tooManyPixels = "too_many_pixels"
            case tooManyFrames = "too_many_frames"
            case dataTooLarge = "data_too_large"
            case httpStatus = "http_status"
            case timeout
            case tooManyRedirects = "too_many_redirects"
            case networkFailure = "network_failure"
            case fileNotFound = "file_not_found"
            case fileUnreadable = "file_unreadable"
            case invalidRequest = "invalid_request"
            case untrustedSource = "untrusted_source"
            case encodingFailed = "encoding_failed"
            case cacheUnavailable = "cache_unavailable"
            case writeFailed = "write_failed"
            case processingFailed = "processing_failed"
            case notCached = "not_cached"
        }

        fileprivate let value: Value

        /// Zero bytes: an empty file or an empty HTTP body.
        public static let emptyData = Code(value: .emptyData)
        /// The bytes are something else (HTML, JSON, text…); ``PinholeError/detectedType`` says what.
        public static let notAnImage = Code(value: .notAnImage)
        /// An image format this build cannot decode (or will not, by policy).
        public static let unsupportedFormat = Code(value: .unsupportedFormat)
        /// The decoder failed; ``PinholeError/message`` carries the decoder's own words.
        public static let decodingFailed = Code(value: .decodingFailed)
        /// The decode ran past the decoder's deadline and was stopped (a hostile or pathological input);
        /// ``PinholeError/message`` says how long it was allowed.
        public static let decodingTimedOut = Code(value: .decodingTimedOut)
        /// The data ends before the image does: a file or body the decoder finds cut short, or a download whose
        /// connection closed before its `Content-Length` (or its last chunk) arrived. Never cached.
        public static let truncated = Code(value: .truncated)
        /// The header declares more pixels than the limit (a decompression-bomb guard, checked before decoding).
        public static let tooManyPixels = Code(value: .tooManyPixels)
        /// An animation declares more frames than the limit.
        public static let tooManyFrames = Code(value: .tooManyFrames)
        /// More bytes than the limit; downloads are stopped while receiving.
        public static let dataTooLarge = Code(value: .dataTooLarge)
        /// A non-2xx HTTP status; ``PinholeError/httpStatusCode`` has it. The body is neither decoded nor cached.
        public static let httpStatus = Code(value: .httpStatus)
        /// A stalled transfer (no bytes within the inactivity timeout), one over the overall deadline, or a
        /// connection not made within the connect timeout.
        public static let timeout = Code(value: .timeout)
        /// A redirect chain longer than the limit, or a redirect loop.
        public static let tooManyRedirects = Code(value: .tooManyRedirects)
        /// A transport failure (connection refused or reset, DNS, TLS, a malformed response, a redirect to a
        /// scheme other than `http`/`https`…); ``PinholeError/underlying`` has the `URLError` when the HTTP
        /// loader's transport reported the failure.
        public static let networkFailure = Code(value: .networkFailure)
        /// No file at the path.
        public static let fileNotFound = Code(value: .fileNotFound)
        /// The file exists but cannot be read (permissions, a directory, an I/O error).
        public static let fileUnreadable = Code(value: .fileUnreadable)
        /// The request itself is malformed (an unsupported URL scheme, a zero thumbnail size…).
        public static let invalidRequest = Code(value: .invalidRequest)
        /// Refused by the untrusted-source policy (a private address, a path outside the allowed root…).
        public static let untrustedSource = Code(value: .untrustedSource)
        /// An encoder failed to write JPEG, PNG or WebP.
        public static let encodingFailed = Code(value: .encodingFailed)
        /// A cache could not be used (for example an unwritable disk-cache directory).
        public static let cacheUnavailable = Code(value: .cacheUnavailable)
        /// A file or directory could not be written (no space, no permission, a name the file system refuses);
        /// ``PinholeError/message`` names the path.
        public static let writeFailed = Code(value: .writeFailed)
        /// An ``ImageProcessing`` step failed; ``PinholeError/message`` says which and why.
        public static let processingFailed = Code(value: .processingFailed)
        /// Offline (``ImageRequest/Options/returnCacheDataDontLoad``) and neither cache holds the image.
        public static let notCached = Code(value: .notCached)

        /// Stable snake_case name, for logs and JSON (`"not_an_image"`).
        public var kind: String { value.rawValue }

        public var description: String { kind }
    }

    /// The class of failure.
    public let code: Code
    /// A sentence for people that says what was found (`"not an image (looks like HTML)"`).
    public let message: String
    /// The HTTP status, for ``Code/httpStatus``.
    public let httpStatusCode: Int?
    /// What the bytes looked like, for ``Code/notAnImage`` and ``Code/unsupportedFormat`` (`"HTML"`, `"svg"`).
    public let detectedType: String?
    /// The error underneath, when there is one (a `URLError`, a POSIX error…).
    public let underlying: (any Error & Sendable)?
    /// The head of the failing response, for ``Code/httpStatus`` from a loader that reports it (`PinholeCurl`'s
    /// `HTTPDataLoader` does): its status, header fields (lowercased names), final URL and the redirects on the
    /// way, with an empty body. The pipeline's disk cache reads it to store a cacheable failure
    /// (``DiskCacheFreshness``); `nil` otherwise.
    public let httpResponse: DataResponse?

    public init(
        _ code: Code,
        _ message: String,
        httpStatusCode: Int? = nil,
        detectedType: String? = nil,
        underlying: (any Error & Sendable)? = nil,
        httpResponse: DataResponse? = nil
    ) {
        self.code = code
        self.message = message
        self.httpStatusCode = httpStatusCode
        self.detectedType = detectedType
        self.underlying = underlying
        self.httpResponse = httpResponse
    }

    public var description: String { "\(code.kind): \(message)" }
}

extension PinholeError {
    /// The error for data whose sniffed content is not a decodable image, or `nil` for an image.
    public static func forSniffed(_ content: SniffedContent) -> PinholeError? {
        switch content {
        case .empty:
            return PinholeError(.emptyData, "empty data (0 bytes)")
        case .notAnImage(let kind):
            return PinholeError(.notAnImage, "not an image (looks like \(kind))", detectedType: kind)
        case .image:
            return nil
        }
    }
}
