import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One JSON line per request: time, client, method, target, milliseconds, status, body bytes sent (0 for a
/// `HEAD`), where the answer came from, and the failure's code and own message.
///
/// Written by hand, keys in a fixed order: it runs on libmicrohttpd's polling threads for every request, where
/// `JSONSerialization` and a new `ISO8601DateFormatter` per line cost more than a cached answer does.
enum AccessLog {
    static func line(
        _ request: ServerRequest, response: ServerResponse?, seconds: Double, now: Date = Date()
    ) -> String {
        var line = "{\"time\":\"\(timestamp(now))\",\"client\":\(quoted(request.clientAddress))"
        line += ",\"method\":\(quoted(request.method)),\"target\":\(quoted(request.target))"
        line += ",\"ms\":\((seconds * 10_000).rounded() / 10)"
        guard let response else { return line + ",\"status\":0,\"aborted\":true}" }
        let bytes = request.method == "HEAD" ? 0 : response.body.count
        line += ",\"status\":\(response.status),\"bytes\":\(bytes)"
        if let from = response.servedFrom { line += ",\"from\":\(quoted(from))" }
        if let code = response.errorCode { line += ",\"error\":\(quoted(code))" }
        if let detail = response.errorDetail { line += ",\"detail\":\(quoted(detail))" }
        return line + "}"
    }

    /// `now` as `2026-12-02T02:09:19Z` (libc's `gmtime_r` and `strftime`).
    static func timestamp(_ now: Date) -> String {
        var seconds = time_t(now.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped (RFC 8259 §7).
    static func quoted(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
