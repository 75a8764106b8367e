import Foundation
import Pinhole

/// Failures as the server answers them: a status and a JSON body `{"error":{"code":…,"message":…}}` whose code
/// is the ``PinholeError`` code (or a ``ProcessingURLError`` code) and whose message is fixed per code: never a
/// server path, an address, a stack or libvips' text (those go to the access log).
enum ErrorResponse {
    /// The status for a pipeline failure: 404 for a source the origin says is gone, 403 for a refused source,
    /// 422 for bytes that are not a usable image, 502/504 for an origin that fails or is too slow, 500 otherwise.
    static func status(for code: PinholeError.Code, originStatus: Int?) -> Int {
        switch code {
        case .httpStatus: [404, 410].contains(originStatus ?? 0) ? 404 : 502
        case .untrustedSource: 403
        case .invalidRequest: 400
        case .notAnImage, .unsupportedFormat, .decodingFailed, .truncated, .emptyData, .tooManyPixels,
            .tooManyFrames, .dataTooLarge:
            422
        case .timeout, .decodingTimedOut: 504
        case .networkFailure, .tooManyRedirects: 502
        default: 500
        }
    }

    static func message(for code: String) -> String {
        switch code {
        case "http_status": "the origin did not return the image"
        case "untrusted_source": "the source URL is not allowed"
        case "not_an_image": "the source is not an image"
        case "unsupported_format": "the source's format is not supported"
        case "decoding_failed": "the source image could not be decoded"
        case "truncated": "the source image is truncated"
        case "empty_data": "the source is empty"
        case "too_many_pixels": "the source image has too many pixels"
        case "too_many_frames": "the source image has too many frames"
        case "data_too_large": "the source is too large"
        case "timeout", "decoding_timed_out": "the source took too long"
        case "network_failure": "the origin could not be reached"
        case "too_many_redirects": "the origin redirected too many times"
        case "invalid_request": "the request is not valid"
        default: "the image could not be made"
        }
    }

    /// A JSON error answer; `no-store`, never cached by anyone.
    static func make(status: Int, code: String, message: String) -> ServerResponse {
        let body =
            (try? JSONSerialization.data(
                withJSONObject: ["error": ["code": code, "message": message]], options: [.sortedKeys])) ?? Data()
        return ServerResponse(
            status: status,
            headers: [
                ("Content-Type", "application/json"), ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"),
            ],
            body: body, errorCode: code)
    }

    static func make(_ error: ProcessingURLError) -> ServerResponse {
        let status =
            switch error.code {
            case "invalid_signature", "source_not_allowed": 403
            case "not_found": 404
            default: 400
            }
        return make(status: status, code: error.code, message: error.message)
    }

    /// A refusal of admission control: 503 with `Retry-After` while the server is full (the client may come back
    /// in a second), 422 for work that alone needs more memory than the budget (it never fits).
    static func make(_ error: AdmissionError) -> ServerResponse {
        guard error.reason != .overBudget else {
            var response = make(
                status: 422, code: "over_memory_budget",
                message: "the source image needs more memory than the server may use")
            response.errorDetail = error.description
            return response
        }
        var response = make(status: 503, code: "overloaded", message: "the server is busy; retry later")
        response.headers.append(("Retry-After", "1"))
        response.errorDetail = error.description
        return response
    }

    static func make(_ error: any Error) -> ServerResponse {
        if let error = error as? AdmissionError { return make(error) }
        guard let error = error as? PinholeError else {
            return make(status: 500, code: "internal", message: message(for: "internal"))
        }
        // A body the origin cut short (a transport error underneath) is the origin's failure, not the image's.
        let status =
            error.code == .truncated && error.underlying is URLError
            ? 502 : status(for: error.code, originStatus: error.httpStatusCode)
        var response = make(status: status, code: error.code.kind, message: message(for: error.code.kind))
        response.errorDetail = error.message
        if let seconds = retryAfter(of: error) { response.headers.append(("Retry-After", String(seconds))) }
        return response
    }

    /// The most seconds an origin's `Retry-After` is passed on with: an hour. Any allowed origin can set it, and a
    /// client that backs off from the whole host would stop asking for every image, not just that origin's.
    static let retryAfterLimit = 3_600

    /// The seconds of the origin's `Retry-After` when it answered 429 or 503 (``HTTPRetryAfter``: delta-seconds,
    /// or an HTTP-date counted from now), at most ``retryAfterLimit``; `nil` for any other failure, a value of
    /// neither form, or a time already past. A failure answered from memory counts down from when the origin
    /// answered (the pipeline keeps the wait as a date of this machine's clock); one answered from the disk cache
    /// has none, its head not being stored. Only digits reach the header.
    /// The answer stays 502 (the origin failed, not this server): a front must not retry it on another instance.
    /// https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3
    static func retryAfter(of error: PinholeError, now: Date = Date()) -> Int? {
        HTTPRetryAfter.seconds(of: error, now: now, limit: retryAfterLimit)
    }
}
