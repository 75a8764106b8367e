import Foundation
public import Pinhole

/// Loads bytes over HTTP(S) with libcurl: one multi handle driven by one thread of the loader's own.
///
/// Every transfer of a loader runs on that thread (`curl_multi_poll`), which hands each result to the waiting
/// caller's continuation; no thread is held while a caller waits, and the loader adds one thread to the process
/// however many transfers run (libcurl's resolver looks a host name up on a short-lived thread of its own; an
/// address literal, `localhost` or a name in its 60-second DNS cache needs none). Connections are reused; HTTP/2 is
/// used (and multiplexed) when a server offers it over TLS. Proxies come from the environment (`http_proxy`,
/// `https_proxy`, `no_proxy`), except under a ``Configuration/connectionPolicy``. TLS certificates and host names are
/// always verified. See https://curl.se/libcurl/c/libcurl-multi.html.
///
/// - Status: a non-2xx status fails with ``PinholeError/Code/httpStatus`` (carrying the code) as soon as the
///   head arrives; the body is neither downloaded further, decoded nor cached. `304` is returned as
///   ``DataResponse/isNotModified`` for revalidation.
/// - Content: the first 64 bytes are sniffed; HTML, JSON, XML or text fail with ``PinholeError/Code/notAnImage``
///   (unless ``Configuration/requiresImageContent`` is off). `Accept-Encoding` is libcurl's: gzip, deflate,
///   brotli and zstd bodies arrive decoded.
/// - Size: more than ``Configuration/maxResponseBytes`` (by `Content-Length` or while receiving) stops the
///   transfer with ``PinholeError/Code/dataTooLarge``.
/// - Time: a stall (``Configuration/stallTimeout``), a transfer longer than ``Configuration/deadline`` (or the
///   request's ``DataRequest/timeout``) and a slow connect (``Configuration/connectTimeout``) fail with
///   ``PinholeError/Code/timeout``.
/// - Redirects: `http` and `https` only (also for the first URL), followed up to
///   ``Configuration/maxRedirects``; a longer chain or a loop fails with ``PinholeError/Code/tooManyRedirects``.
///   Every header goes to hops on the request's origin (scheme, host and port); once a hop leaves it, only
///   `Accept`, `Accept-Language`, `Cache-Control`, `If-Modified-Since`, `If-None-Match`, `Pragma` and
///   `User-Agent` are sent (`Authorization`, `Cookie` and custom headers are not). Each redirect is reported in
///   ``DataResponse/redirects``.
/// - Addresses: ``Configuration/connectionPolicy`` sees every address before a socket is opened to it.
/// - Failures of the transport (refused, reset, DNS, TLS…) are ``PinholeError/Code/networkFailure`` with a
///   `URLError` as ``PinholeError/underlying`` (its message is libcurl's). A body cut short (the connection
///   closed before `Content-Length` bytes or the last chunk arrived) is ``PinholeError/Code/truncated``.
/// - Cancellation: cancelling the calling task answers it at once with `CancellationError` (never a
///   `URLError`), and the loader's thread removes the transfer from libcurl right after, whatever the
///   transfer was doing (connecting, between redirects, receiving): the connection closes, so the server sees
///   the abort.
///
/// Thread-safe; share one loader per process or pipeline (connections are reused within a loader only).
public final class HTTPDataLoader: DataLoading {
    /// The configuration the loader was made with.
    public let configuration: Configuration
    private let multi: CurlMulti

    /// A loader with `configuration`; its thread starts with the first transfer.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.multi = CurlMulti(maxConnectionsPerHost: configuration.maxConnectionsPerHost)
    }

    deinit {
        // No caller is waiting (each holds the loader); transfers whose callers left are removed by the thread.
        multi.shutdown()
    }

    /// Transfers handed to the loader's thread and not yet released by it. A cancelled transfer counts until
    /// the thread has removed it from libcurl (normally well under a millisecond later).
    public var activeTransferCount: Int { multi.activeTransferCount }

    /// - Throws: ``PinholeError`` (see the type's documentation) or `CancellationError`.
    public func loadData(for request: DataRequest) async throws -> DataResponse {
        try Task.checkCancellation()
        let options = try HTTPTransferOptions(request: request, configuration: configuration)
        let transfer = HTTPTransfer(request: request, options: options)
        let multi = self.multi
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<DataResponse, any Error>) in
                guard transfer.begin(continuation) else { return }
                multi.add(transfer)
            }
        } onCancel: {
            // Answer the caller now; then the thread removes the transfer (a no-op if it was never added).
            if transfer.finish(.failure(CancellationError())) { multi.remove(transfer) }
        }
    }
}
