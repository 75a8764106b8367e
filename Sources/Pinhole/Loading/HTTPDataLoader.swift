public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads bytes over HTTP(S) with one long-lived `URLSession`, enforcing the limits URLSession does not.
///
/// - Status: a non-2xx status fails with ``PinholeError/Code/httpStatus`` (carrying the code) as soon as the
///   head arrives; the body is neither downloaded further, decoded nor cached. `304` is returned as
///   ``DataResponse/isNotModified`` for revalidation.
/// - Content: the first bytes are sniffed; HTML, JSON, XML or text fail with ``PinholeError/Code/notAnImage``.
/// - Size: more than ``Configuration/maxResponseBytes`` (by `Content-Length` or while receiving) stops the
///   transfer with ``PinholeError/Code/dataTooLarge``.
/// - Time: no byte for ``Configuration/stallTimeout`` or a transfer longer than ``Configuration/deadline``
///   fails with ``PinholeError/Code/timeout``. These are enforced by cancelling the transfer, because
///   URLSession's own sub-second timeouts do not work on Linux.
/// - Redirects: followed up to ``Configuration/maxRedirects``; a longer chain or a loop fails with
///   ``PinholeError/Code/tooManyRedirects``. ``Configuration/redirectPolicy`` may refuse any target.
/// - Cancellation: cancelling the calling task cancels the transfer (the server sees the socket close) and
///   throws `CancellationError`, never `URLError.cancelled`.
///
/// Thread-safe; share one loader (and so one session) per process or pipeline.
public final class HTTPDataLoader: DataLoading {
    /// Limits and session settings.
    public struct Configuration: Sendable {
        /// Largest body accepted, in bytes; 50,000,000 by default.
        public var maxResponseBytes: Int = 50_000_000
        /// Longest time without receiving a byte; 15 s by default.
        public var stallTimeout: Duration = .seconds(15)
        /// Longest time for a whole transfer, redirects included; 60 s by default.
        public var deadline: Duration = .seconds(60)
        /// Most redirects followed; 5 by default.
        public var maxRedirects: Int = 5
        /// Connections URLSession opens to one host; 6 by default.
        public var maxConnectionsPerHost: Int = 6
        /// Headers added to every request (for example `User-Agent`).
        public var additionalHeaders: [String: String] = ["User-Agent": "Pinhole"]
        /// Whether bodies must look like images: HTML, JSON, XML or text then fail early with
        /// ``PinholeError/Code/notAnImage``. `true` by default; `false` to fetch documents such as feeds.
        public var requiresImageContent: Bool = true
        /// Called with the first URL and every redirect target before it is fetched; throw to refuse it
        /// (the error is passed on to the caller). `nil` by default. It may block briefly (for example to
        /// resolve a host name): the first call runs on ``WorkerThreadPool/io``, redirect calls on URLSession's
        /// delegate queue.
        public var redirectPolicy: (@Sendable (URL) throws -> Void)?

        public init() {}
    }

    /// The configuration the loader was made with.
    public let configuration: Configuration
    private let session: URLSession
    private let delegate: HTTPSessionDelegate
    private let timerQueue = DispatchQueue(label: "pinhole.http.watchdog")

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.default
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maxConnectionsPerHost
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        // Our own watchdog enforces the real limits; these only back it up (they must be ≥ 1 s on Linux).
        let seconds = max(1, Double(configuration.deadline.components.seconds) + 5)
        sessionConfiguration.timeoutIntervalForRequest = seconds
        sessionConfiguration.timeoutIntervalForResource = seconds
        let delegate = HTTPSessionDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        // Not invalidateAndCancel(): cancelling a task while FoundationNetworking waits for (or is acting on) a
        // redirect answer traps. Transfers still running end on their own (each has its watchdog and deadline).
        session.finishTasksAndInvalidate()
    }

    /// Transfers under way now.
    public var activeTransferCount: Int { delegate.count }

    public func loadData(for request: DataRequest) async throws -> DataResponse {
        try Task.checkCancellation()
        if let policy = configuration.redirectPolicy {
            // A policy may block (the untrusted-source guard resolves host names): keep it off the cooperative pool.
            let url = request.url
            try await WorkerThreadPool.io.run { try policy(url) }
            try Task.checkCancellation()
        }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "GET"
        for (name, value) in configuration.additionalHeaders { urlRequest.setValue(value, forHTTPHeaderField: name) }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let etag = request.ifNoneMatch { urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let date = request.ifModifiedSince { urlRequest.setValue(date, forHTTPHeaderField: "If-Modified-Since") }

        let transfer = HTTPTransfer(url: request.url, configuration: configuration, controlQueue: timerQueue)
        let task = session.dataTask(with: urlRequest)
        transfer.task = task
        // Unregistered at the task's last callback (didComplete), not when the caller leaves: callbacks that come
        // after a cancel (a redirect question, the completion) must still reach the transfer.
        delegate.register(transfer, for: task.taskIdentifier)

        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<DataResponse, any Error>) in
                guard transfer.begin(continuation) else { return }
                transfer.startWatchdog(on: timerQueue)
                task.resume()
            }
        } onCancel: {
            transfer.finish(.failure(CancellationError()))
        }
    }
}
