import CCurl
import CPinholeCurl
import Foundation
import Pinhole

/// The libcurl side of one ``HTTPTransfer``: its easy handle, the response as it arrives, and why a callback
/// stopped it. Lives on the loader's thread only (``CurlMulti`` creates, drives and releases it there), so its
/// state needs no lock; the caller is reached only through ``transfer``.
///
/// libcurl calls the callbacks (``CurlTransfer+Callbacks.swift``) from inside `curl_multi_perform` on that
/// thread, with this object as their user data; it outlives the easy handle, which `deinit` cleans up.
final class CurlTransfer {
    let transfer: HTTPTransfer
    /// The easy handle (`CURL *`).
    let easy: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var resolveList: UnsafeMutablePointer<curl_slist>?
    /// libcurl writes the reason of a failure here (`CURLOPT_ERRORBUFFER`, `CURL_ERROR_SIZE` bytes).
    private let errorBuffer: UnsafeMutablePointer<CChar>

    // Response state, written by the callbacks.
    var head = HTTPResponseHead()
    /// The head of the response being delivered, once complete (never an interim or redirect head).
    var finalHead: HTTPResponseHead?
    var body = Data()
    var sniffed = false
    /// Body bytes of responses that are not delivered (redirects), counted against the response limit.
    var discardedBytes = 0
    /// Why a callback stopped the transfer (it then returned an error code to libcurl); reported instead of
    /// libcurl's own code.
    var failure: (any Error)?
    /// The first address the connection policy refused; reported if no other address connected.
    var refusal: (any Error)?
    var progress = ProgressThrottle()

    // Redirect state (``CurlTransfer+Redirects.swift``): libcurl does not follow redirects itself
    // (`CURLOPT_FOLLOWLOCATION` is off); the loader's thread starts each hop on this handle.
    /// The head of the redirect the hop answered with, once complete.
    var redirectHead: HTTPResponseHead?
    /// The redirects followed so far, in order.
    var redirects: [DataResponse.Redirect] = []
    /// Whether every hop so far stayed on the request's origin: until one leaves it, every header is sent.
    var staysOnOrigin = true
    /// When the first hop started: the deadline covers the whole chain.
    let startedAt = ContinuousClock.now
    /// The phases and bytes of the hops before this one, summed (``CurlTransfer+Metrics.swift``); `nil` on the
    /// first hop.
    var earlierHops: TransferMetrics?

    /// Creates the easy handle and sets every option; `nil` when libcurl cannot allocate one.
    init?(_ transfer: HTTPTransfer) {
        guard let easy = curl_easy_init() else { return nil }
        self.transfer = transfer
        self.easy = easy
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        configure()
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        curl_slist_free_all(resolveList)
        errorBuffer.deallocate()
    }

    var options: HTTPTransferOptions { transfer.options }
    var url: String { options.url }

    private func configure() {
        let options = self.options
        let me = Unmanaged.passUnretained(self).toOpaque()
        setString(CURLOPT_URL, options.url)
        // Signals cannot be used with threads (libcurl's DNS timeouts would raise SIGALRM otherwise).
        setLong(CURLOPT_NOSIGNAL, 1)
        setString(CURLOPT_PROTOCOLS_STR, "http,https")
        // Redirects are followed hop by hop by the loader's thread (``CurlTransfer+Redirects.swift``), which
        // decides per hop which headers go with it; libcurl would send every custom header to any origin.
        setLong(CURLOPT_FOLLOWLOCATION, 0)
        CPinholeCurl_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maxResponseBytes))
        setLong(CURLOPT_LOW_SPEED_LIMIT, 1)
        setLong(CURLOPT_LOW_SPEED_TIME, options.stallSeconds)
        setLong(CURLOPT_TIMEOUT_MS, options.deadlineMilliseconds)
        setLong(CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeoutMilliseconds)
        // "" = every encoding this libcurl decodes (gzip, deflate, br, zstd), decoded before the write callback.
        setString(CURLOPT_ACCEPT_ENCODING, "")
        setHTTPVersion(for: options.url)
        setLong(CURLOPT_SSL_VERIFYPEER, 1)
        setLong(CURLOPT_SSL_VERIFYHOST, 2)
        CPinholeCurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        setHeaderLines(options.headerLines)
        if !options.resolveOverrides.isEmpty {
            for entry in options.resolveOverrides { resolveList = curl_slist_append(resolveList, entry) }
            CPinholeCurl_easy_setopt_pointer(easy, CURLOPT_RESOLVE, resolveList)
        }
        CPinholeCurl_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, Self.headerCallback)
        CPinholeCurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, me)
        CPinholeCurl_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, Self.writeCallback)
        CPinholeCurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me)
        if options.connectionPolicy != nil {
            CPinholeCurl_easy_setopt_opensocket_callback(easy, Self.openSocketCallback)
            CPinholeCurl_easy_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, me)
            // A proxy would be the address connected to; the checked address must be the server's.
            setString(CURLOPT_PROXY, "")
        }
    }

    /// The HTTP version and connection sharing for a hop to `url`.
    func setHTTPVersion(for url: String) {
        if url.lowercased().hasPrefix("https:") {
            // HTTP/2 when the server offers it (ALPN), and then one multiplexed connection: a transfer waits for
            // the first connection to a host to say whether it multiplexes rather than open another one.
            setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
            setLong(CURLOPT_PIPEWAIT, 1)
        } else {
            // Plain http is HTTP/1.1 (no h2c upgrade): with nothing to multiplex, PIPEWAIT would only make every
            // transfer to a host whose connections have all closed wait for one whole response first (measured:
            // +180 ms per image in `pinhole bench scroll --refresh`, where cancellations close connections).
            setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
            setLong(CURLOPT_PIPEWAIT, 0)
        }
    }

    /// Replaces the request header lines (`CURLOPT_HTTPHEADER`); only while the handle is out of the multi.
    func setHeaderLines(_ lines: [String]) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines { list = curl_slist_append(list, line) }
        CPinholeCurl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, list)
        curl_slist_free_all(headerList)
        headerList = list
    }

    func setLong(_ option: CURLoption, _ value: Int) {
        CPinholeCurl_easy_setopt_long(easy, option, value)
    }

    func setString(_ option: CURLoption, _ value: String) {
        CPinholeCurl_easy_setopt_string(easy, option, value)
    }

    /// What the loader's thread does once libcurl reports a hop done.
    enum Step {
        /// The transfer is over: answer the caller with this.
        case finish(Result<DataResponse, any Error>)
        /// The hop answered with a redirect to `URL`: take the handle out of the multi, call
        /// ``beginHop(to:)``, and add it again.
        case follow(URL)
    }

    /// The next step once libcurl reports the current hop done with `code`.
    func step(after code: CURLcode) -> Step {
        if let failure { return .finish(.failure(failure)) }
        guard code == CURLE_OK else {
            if code == CURLE_COULDNT_CONNECT, let refusal { return .finish(.failure(refusal)) }
            return .finish(.failure(CurlErrors.error(for: code, message: errorMessage, url: url)))
        }
        if finalHead == nil, let redirectHead { return redirectStep(redirectHead) }
        guard let head = finalHead else {
            return .finish(.failure(PinholeError(.networkFailure, "\(url): ended without a response")))
        }
        progress.finish(body.count, transfer.request.onProgress)
        return .finish(
            .success(
                DataResponse(
                    data: body, statusCode: head.status, headers: head.fields, url: currentURL, redirects: redirects,
                    metrics: transferMetrics())))
    }

    /// Clears what the previous hop received, before the next one starts.
    func resetResponseState() {
        head = HTTPResponseHead()
        finalHead = nil
        redirectHead = nil
        body = Data()
        sniffed = false
        discardedBytes = 0
        failure = nil
        refusal = nil
        progress = ProgressThrottle()
        errorBuffer[0] = 0
    }

    /// libcurl's description of the failure (the error buffer), or its generic text for the code.
    private var errorMessage: String {
        errorBuffer[0] != 0 ? String(cString: errorBuffer) : ""
    }
}
