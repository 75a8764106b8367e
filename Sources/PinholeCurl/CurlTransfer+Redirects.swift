import CCurl
import CPinholeCurl
import Foundation
import Pinhole

/// Redirects, followed by the loader's thread one hop at a time on the same easy handle.
///
/// libcurl's own following (`CURLOPT_FOLLOWLOCATION`) sends every custom request header to every hop and drops
/// only `Authorization` and `Cookie` on a change of host, so an `X-Api-Key` reached any origin a server
/// redirected to; it has no hook to choose the headers per hop. Following here lets each hop carry the headers
/// ``CrossOriginRedirects`` allows, and lets the response report every redirect it went through
/// (``DataResponse/redirects``, for the disk cache's freshness). What libcurl did per hop still happens per
/// hop: the connection policy sees each socket, `CURLOPT_PROTOCOLS_STR` and the size, stall and connect limits
/// apply, and connections are reused (they belong to the multi handle). The deadline covers the whole chain:
/// each hop gets what is left of it.
extension CurlTransfer {
    /// The step after a hop answered with the redirect `head`.
    func redirectStep(_ head: HTTPResponseHead) -> Step {
        let from = currentURL
        var target: UnsafePointer<CChar>?
        CPinholeCurl_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &target)
        guard let text = target.map({ String(cString: $0) }), let next = URL(string: text) else {
            let status = head.status
            let message = "HTTP \(status) for \(url) with a Location that is not a URL"
            return .finish(.failure(PinholeError(.httpStatus, message, httpStatusCode: status)))
        }
        redirects.append(DataResponse.Redirect(url: from, statusCode: head.status, headers: head.fields))
        guard redirects.count <= options.maxRedirects else {
            let message = "Maximum (\(options.maxRedirects)) redirects followed"
            return .finish(.failure(CurlErrors.error(for: CURLE_TOO_MANY_REDIRECTS, message: message, url: url)))
        }
        guard let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            let message = "a redirect to \(text): only http and https are followed"
            return .finish(.failure(CurlErrors.error(for: CURLE_UNSUPPORTED_PROTOCOL, message: message, url: url)))
        }
        return .follow(next)
    }

    /// Points the handle (out of the multi) at `next`, with the headers the hop may carry and what is left of
    /// the deadline.
    func beginHop(to next: URL) {
        recordHop()
        resetResponseState()
        let leaving = staysOnOrigin && !CrossOriginRedirects.sameOrigin(transfer.request.url, next)
        if leaving {
            staysOnOrigin = false
            setHeaderLines(options.crossOriginHeaderLines)
        }
        setString(CURLOPT_URL, next.absoluteString)
        let elapsed = ContinuousClock.now - startedAt
        setLong(
            CURLOPT_TIMEOUT_MS,
            HTTPTransferOptions.remainingMilliseconds(ofDeadline: options.deadlineMilliseconds, after: elapsed))
        setHTTPVersion(for: next.absoluteString)
    }
}
