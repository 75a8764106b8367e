/// Parses an HTTP/1.x request head from the bytes received so far. Pure: no I/O, no state.
///
/// Lenient where clients differ (bare LF line ends, absolute-form targets, no `Host` from a hand-written test
/// client), strict where garbage would otherwise be misread: anything malformed is a `400`, a head over the size
/// cap a `431`.
enum HTTPRequestParser {
    /// The largest request head accepted, in bytes (request line, header fields and the blank line).
    static let maxHeadBytes = 16 * 1024

    /// A request head that parsed.
    struct Head: Equatable {
        var request: Request
        /// `true` when the client wants the connection kept open (HTTP/1.1 unless `Connection: close`;
        /// HTTP/1.0 only with `Connection: keep-alive`).
        var keepAlive: Bool
        /// Body bytes that follow the head (`Content-Length`, 0 without one).
        var contentLength: Int
        /// Bytes of the head, including the blank line that ends it.
        var headLength: Int
    }

    enum Outcome: Equatable {
        /// The head is not complete yet; read more bytes.
        case needMoreData
        case head(Head)
        /// Malformed or unsupported: answer with this status and close.
        case reject(status: Int)
    }

    static func parse(_ buffer: [UInt8]) -> Outcome {
        guard let (headEnd, headLength) = findHeadEnd(buffer) else {
            return buffer.count > maxHeadBytes ? .reject(status: 431) : .needMoreData
        }
        guard headLength <= maxHeadBytes else { return .reject(status: 431) }
        var lines = buffer[..<headEnd].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { line -> ArraySlice<UInt8> in line.last == UInt8(ascii: "\r") ? line.dropLast() : line }
        guard !lines.isEmpty else { return .reject(status: 400) }
        let requestLine = lines.removeFirst()
        guard let (method, target, minorVersion) = parseRequestLine(requestLine) else { return .reject(status: 400) }
        if minorVersion < 0 { return .reject(status: 505) }
        guard let (path, query) = splitTarget(target) else { return .reject(status: 400) }

        var headers: [String: String] = [:]
        for line in lines {
            guard let (name, value) = parseField(line) else { return .reject(status: 400) }
            if let existing = headers[name] {
                if name == "content-length" && existing != value { return .reject(status: 400) }
                headers[name] = name == "content-length" ? value : existing + ", " + value
            } else {
                headers[name] = value
            }
        }
        if headers["transfer-encoding"] != nil { return .reject(status: 501) }
        var contentLength = 0
        if let value = headers["content-length"] {
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(value) else {
                return .reject(status: 400)
            }
            contentLength = length
        }
        let connectionTokens = Set(
            (headers["connection"] ?? "").lowercased().split(separator: ",").map {
                $0.trimmingBlanks()
            }
        )
        let keepAlive =
            minorVersion == 1 ? !connectionTokens.contains("close") : connectionTokens.contains("keep-alive")
        let request = Request(method: method, path: path, query: query, headers: headers)
        return .head(Head(request: request, keepAlive: keepAlive, contentLength: contentLength, headLength: headLength))
    }

    /// The index where the head's last line ends and the head's full length, or nil when not complete.
    private static func findHeadEnd(_ buffer: [UInt8]) -> (Int, Int)? {
        let limit = min(buffer.count, maxHeadBytes + 4)
        var index = 0
        while index < limit {
            if buffer[index] == UInt8(ascii: "\n") {
                // "\n\n" or "\n\r\n" ends the head.
                if index + 1 < buffer.count && buffer[index + 1] == UInt8(ascii: "\n") {
                    return (index, index + 2)
                }
                if index + 2 < buffer.count && buffer[index + 1] == UInt8(ascii: "\r")
                    && buffer[index + 2] == UInt8(ascii: "\n")
                {
                    return (index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    /// `METHOD SP target SP HTTP/1.x`; the minor version is -1 for a well-formed version other than 1.x.
    private static func parseRequestLine(_ line: ArraySlice<UInt8>) -> (String, String, Int)? {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, let method = token(parts[0]) else { return nil }
        let targetBytes = parts[1]
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        let version = Array(parts[2])
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), version[6] == UInt8(ascii: "."),
            (0x30...0x39).contains(version[5]), (0x30...0x39).contains(version[7])
        else { return nil }
        let major = Int(version[5] - 0x30)
        let minor = Int(version[7] - 0x30)
        guard major == 1, minor <= 1 else { return (method, String(decoding: targetBytes, as: UTF8.self), -1) }
        return (method, String(decoding: targetBytes, as: UTF8.self), minor)
    }

    /// Origin form (`/a?b`), absolute form (`http://host/a?b`, reduced to its path) or `*`.
    private static func splitTarget(_ target: String) -> (String, String?)? {
        var pathAndQuery = Substring(target)
        if !target.hasPrefix("/") {
            if target == "*" { return ("*", nil) }
            guard let schemeEnd = target.firstRange(of: "://") else { return nil }
            let afterScheme = target[schemeEnd.upperBound...]
            pathAndQuery = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        }
        guard let questionMark = pathAndQuery.firstIndex(of: "?") else { return (String(pathAndQuery), nil) }
        return (String(pathAndQuery[..<questionMark]), String(pathAndQuery[pathAndQuery.index(after: questionMark)...]))
    }

    /// `name: value` with a token name (lowercased) and a value without surrounding blanks or control bytes.
    private static func parseField(_ line: ArraySlice<UInt8>) -> (String, String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), let name = token(line[..<colon]) else { return nil }
        let value = line[line.index(after: colon)...]
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else { return nil }
        let text = String(decoding: value, as: UTF8.self).trimmingBlanks()
        return (name.lowercased(), text)
    }

    /// The bytes as a string when they form a non-empty RFC 9110 token.
    private static func token(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.allSatisfy(isTokenByte) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    func trimmingBlanks() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }) else { return "" }
        guard let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
