import Foundation

/// One JSON line per request: time, client, method, target, status, bytes, milliseconds, where the answer came
/// from, and the failure's code and own message.
enum AccessLog {
    static func line(
        _ request: ServerRequest, response: ServerResponse?, seconds: Double, now: Date = Date()
    ) -> String {
        var fields: [String: Any] = [
            "time": ISO8601DateFormatter.string(
                from: now, timeZone: TimeZone(secondsFromGMT: 0) ?? .current, formatOptions: [.withInternetDateTime]),
            "client": request.clientAddress, "method": request.method, "target": request.target,
            "ms": (seconds * 1000 * 10).rounded() / 10,
        ]
        if let response {
            fields["status"] = response.status
            fields["bytes"] = response.body.count
            if let from = response.servedFrom { fields["from"] = from }
            if let code = response.errorCode { fields["error"] = code }
            if let detail = response.errorDetail { fields["detail"] = detail }
        } else {
            fields["status"] = 0
            fields["aborted"] = true
        }
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
