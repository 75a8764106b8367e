import CCurl
import Foundation
import Pinhole

/// libcurl's result codes in Pinhole's terms (https://curl.se/libcurl/c/libcurl-errors.html).
///
/// A code that a Pinhole limit maps to gets that limit's ``PinholeError/Code`` (a timeout, too many redirects, too
/// many bytes), a body cut short is ``PinholeError/Code/truncated``, and every other failure of the transport is
/// ``PinholeError/Code/networkFailure``; each with a `URLError` underneath (the nearest `URLError.Code`,
/// libcurl's message as its description), as URLSession gave before.
enum CurlErrors {
    /// The error for a transfer of `url` that libcurl ended with `code`; `message` is its error buffer.
    static func error(for code: CURLcode, message: String, url: String) -> PinholeError {
        let detail = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
        let underlying = urlError(for: code, message: detail, url: url)
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            // The deadline, the connect timeout or the low-speed (stall) limit; libcurl's message says which.
            return PinholeError(.timeout, "\(url): timed out (\(detail))", underlying: underlying)
        case CURLE_TOO_MANY_REDIRECTS:
            return PinholeError(.tooManyRedirects, "too many redirects from \(url) (\(detail))", underlying: underlying)
        case CURLE_FILESIZE_EXCEEDED:
            return PinholeError(.dataTooLarge, "\(url): \(detail)", underlying: underlying)
        case CURLE_PARTIAL_FILE:
            // The connection closed before the body was complete: fewer bytes than `Content-Length`, or a chunked
            // body without its last chunk. A reset mid-body is a transport failure (CURLE_RECV_ERROR) instead.
            return PinholeError(.truncated, "\(url): the body ends early (\(detail))", underlying: underlying)
        default:
            return PinholeError(
                .networkFailure, "\(url): \(detail) (curl error \(code.rawValue))", underlying: underlying)
        }
    }

    static func urlError(for code: CURLcode, message: String, url: String) -> URLError {
        var userInfo: [String: any Sendable] = [NSLocalizedDescriptionKey: message]
        if let failing = URL(string: url) { userInfo[NSURLErrorFailingURLErrorKey] = failing }
        return URLError(urlErrorCode(for: code), userInfo: userInfo)
    }

    private static func urlErrorCode(for code: CURLcode) -> URLError.Code {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL: return .unsupportedURL
        case CURLE_URL_MALFORMAT: return .badURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotFindHost
        case CURLE_COULDNT_CONNECT: return .cannotConnectToHost
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_TOO_MANY_REDIRECTS: return .httpTooManyRedirects
        case CURLE_FILESIZE_EXCEEDED: return .dataLengthExceedsMaximum
        case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            return .networkConnectionLost
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3: return .badServerResponse
        case CURLE_BAD_CONTENT_ENCODING: return .cannotDecodeContentData
        case CURLE_PEER_FAILED_VERIFICATION: return .serverCertificateUntrusted
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_ENGINE_INITFAILED:
            return .secureConnectionFailed
        default: return .unknown
        }
    }
}
