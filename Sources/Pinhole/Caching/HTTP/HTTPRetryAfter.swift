package import Foundation

/// `Retry-After` (RFC 9110 §10.2.3): how long an origin that answered `429 Too Many Requests` or
/// `503 Service Unavailable` asked its clients to wait before they ask again. Its two forms are delta-seconds
/// (`120`) and an HTTP-date (``HTTPDate``); any other text (`-5`, `1e3`, `soon`) asks for nothing.
///
/// Source: https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3
package enum HTTPRetryAfter {
    /// The statuses whose `Retry-After` asks for a wait: 429 and 503 (on a redirect it only delays the hop).
    package static let statuses: Set<Int> = [429, 503]

    /// The whole seconds `value` asks to wait, counted from `now`: at least 1 and at most `limit`, or `nil` for a
    /// value of neither form or a time not in the future. Leading zeros count for nothing (`delta-seconds =
    /// 1*DIGIT`); more than 9 digits is `limit`; a date's fraction of a second counts as a whole one.
    package static func seconds(_ value: String?, now: Date, limit: Int) -> Int? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty, limit >= 1 else { return nil }
        let seconds: Int
        if value.utf8.allSatisfy({ (48...57).contains($0) }) {
            let digits = value.drop { $0 == "0" }
            seconds = digits.count > 9 ? limit : Int(digits) ?? 0
        } else if let date = HTTPDate.parse(value) {
            seconds = Int(min(date.timeIntervalSince(now).rounded(.up), TimeInterval(limit)))
        } else {
            return nil
        }
        return seconds >= 1 ? min(seconds, limit) : nil
    }

    /// The wait `error`'s origin asked for (``seconds(_:now:limit:)``) when it is an HTTP 429 or 503
    /// (``PinholeError/Code/httpStatus``) whose head is kept; `nil` for any other failure.
    package static func seconds(of error: PinholeError, now: Date, limit: Int) -> Int? {
        guard error.code == .httpStatus, let status = error.httpStatusCode, statuses.contains(status) else {
            return nil
        }
        return seconds(error.httpResponse?.headers["retry-after"], now: now, limit: limit)
    }

    /// The HTTP-date at which a wait of `seconds` from `now` ends, rounded up to the whole second: counted down from
    /// it (``seconds(_:now:limit:)``), the wait never ends early (rounded down, a wait of 1 s kept at x.9 s would
    /// read as none 0.1 s later).
    package static func date(endingWaitOf seconds: Int, from now: Date) -> String {
        let end = (now.timeIntervalSince1970 + TimeInterval(seconds)).rounded(.up)
        return HTTPDate.format(Date(timeIntervalSince1970: end))
    }
}
