package import Foundation
import PinholeShared

/// HTTP dates (`Date`, `Expires`, `Last-Modified`), parsed as RFC 9110 §5.6.7 asks of a recipient: the three
/// formats `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), `Sunday, 06-Nov-94 08:49:37 GMT` (RFC 850; a two-digit
/// year more than 50 years ahead is taken as the past century's) and `Sun Nov  6 08:49:37 1994` (asctime), all in
/// GMT. Anything else (`0`, `-1`, another zone, a 32nd day) is not a date: `nil`.
///
/// Source: https://www.rfc-editor.org/rfc/rfc9110#section-5.6.7
package enum HTTPDate {
    /// One formatter per format. `DateFormatter` is not documented thread-safe on Linux, so parsing happens under
    /// the lock (a few microseconds, once per response).
    private static let formatters = Locked<[DateFormatter]>([
        formatter("EEE, dd MMM yyyy HH:mm:ss 'GMT'"),
        formatter("EEEE, dd-MMM-yy HH:mm:ss 'GMT'"),
        formatter("EEE MMM d HH:mm:ss yyyy"),
    ])

    /// The instant `text` names, or `nil` when it is not an HTTP date.
    package static func parse(_ text: String?) -> Date? {
        guard var text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        // asctime pads a one-digit day with a space ("Nov  6"); the formatter wants one space.
        while text.contains("  ") { text = text.replacingOccurrences(of: "  ", with: " ") }
        let now = Date()
        return formatters.withLock { formatters in
            for formatter in formatters {
                formatter.twoDigitStartDate = now.addingTimeInterval(-50 * 365.25 * 86_400)
                if let date = formatter.date(from: text) { return date }
            }
            return nil
        }
    }

    /// `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    package static func format(_ date: Date) -> String {
        formatters.withLock { $0[0].string(from: date) }
    }

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        formatter.isLenient = false
        return formatter
    }
}
