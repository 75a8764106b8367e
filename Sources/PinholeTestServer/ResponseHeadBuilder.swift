/// Builds the response heads the server sends and evaluates conditional requests. Pure: no I/O. (Not the
/// loader's `HTTPResponseHead`, which parses the heads a client receives.)
enum ResponseHeadBuilder {
    /// Fields the server writes itself; the same names in ``Route/headers`` are dropped.
    private static let managedFields: Set<String> = ["content-length", "connection", "etag"]

    /// The status line and header fields, ending with the blank line.
    ///
    /// - Parameters:
    ///   - contentLength: the full body size in bytes, or nil for responses that never have a body (304).
    static func encode(
        status: Int, headers: [String: String], etag: String?, contentLength: Int?, close: Bool
    ) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reasonPhrase(for: status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key })
        where !managedFields.contains(name.lowercased()) && isSafe(name) && isSafe(value) {
            text += "\(name): \(value)\r\n"
        }
        if let etag { text += "ETag: \(quoted(etag))\r\n" }
        if let contentLength { text += "Content-Length: \(contentLength)\r\n" }
        text += close ? "Connection: close\r\n" : "Connection: keep-alive\r\n"
        text += "\r\n"
        return Array(text.utf8)
    }

    /// A small plain-text response for a status the server produces itself (400, 404, 431 …).
    static func plain(status: Int, close: Bool, includeBody: Bool = true, extra: [String: String] = [:]) -> [UInt8] {
        let body = "\(status) \(reasonPhrase(for: status))\n"
        var fields = extra
        fields["Content-Type"] = "text/plain; charset=utf-8"
        let head = encode(status: status, headers: fields, etag: nil, contentLength: body.utf8.count, close: close)
        return includeBody ? head + Array(body.utf8) : head
    }

    /// Whether `If-None-Match` (a list of entity tags, or `*`) matches `etag` under weak comparison.
    static func ifNoneMatch(_ header: String, matches etag: String) -> Bool {
        let current = opaque(quoted(etag))
        return header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingBlanks()
            return tag == "*" || opaque(tag) == current
        }
    }

    /// Whether a response with this status may carry a body.
    static func allowsBody(status: Int) -> Bool {
        !(100..<200).contains(status) && status != 204 && status != 304
    }

    /// The tag as sent on the wire: quoted unless already quoted or weak (`W/"…"`).
    static func quoted(_ etag: String) -> String {
        etag.hasPrefix("\"") || etag.hasPrefix("W/") ? etag : "\"\(etag)\""
    }

    /// The tag without its weakness indicator, for weak comparison.
    private static func opaque(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }

    /// Header text must not smuggle line breaks into the response.
    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A })
    }

    static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
