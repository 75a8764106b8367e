import Foundation
import Pinhole

/// The head of the response libcurl is receiving, built from the header lines it hands over one at a time
/// (`CURLOPT_HEADERFUNCTION`): the status line, the fields, then an empty line.
///
/// libcurl hands over the heads of every response of a hop: `1xx` interim responses, then a redirect (which
/// the loader follows with a hop of its own) or the final response, and trailers after a chunked body. A status
/// line starts a new head; lines after a complete redirect or final head are trailers and are ignored.
struct HTTPResponseHead {
    /// What the head says once complete.
    enum Kind: Equatable {
        /// Still receiving header lines.
        case incomplete
        /// `1xx`: another head follows.
        case interim
        /// A `3xx` (not `304`) with a `Location`, which the loader follows.
        case redirect
        /// The response whose body the transfer delivers (any status; the caller judges it).
        case final
    }

    /// The status code of the current head (0 before a status line).
    private(set) var status = 0
    /// Fields by lowercased name; a repeated field is joined with `", "`.
    private(set) var fields: [String: String] = [:]
    private(set) var kind = Kind.incomplete
    private var lastName: String?

    /// Feeds one raw header line (with its line break). Returns the head's kind when the line completed a
    /// head, `nil` otherwise.
    mutating func consume(_ line: String) -> Kind? {
        let trimmed = line.trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
        if trimmed.hasPrefix("HTTP/") {
            self = HTTPResponseHead()
            status = Self.statusCode(of: trimmed)
            return nil
        }
        guard kind == .incomplete else { return nil }  // trailers after a final head, or stray lines
        if trimmed.isEmpty {
            guard status != 0 else { return nil }
            if (100..<200).contains(status) {
                kind = .interim
            } else if (300..<400).contains(status) && status != 304 && fields["location"] != nil {
                kind = .redirect
            } else {
                kind = .final
            }
            return kind
        }
        if trimmed.first == " " || trimmed.first == "\t", let lastName {
            // Obsolete line folding (RFC 9112 §5.2): a continuation of the previous field's value.
            fields[lastName, default: ""] += " " + trimmed.trimmingCharacters(in: .whitespaces)
            return nil
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let name = trimmed[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        if let existing = fields[name] {
            fields[name] = existing + ", " + value
        } else {
            fields[name] = value
        }
        lastName = name
        return nil
    }

    /// `Content-Length` as the size of the body the caller will receive, or `nil` when unknown (absent,
    /// malformed, or the body is content-encoded and libcurl decodes it).
    var expectedBodyBytes: Int? {
        guard let text = fields["content-length"], let length = Int(text), length >= 0 else { return nil }
        if let encoding = fields["content-encoding"], encoding.lowercased() != "identity" { return nil }
        return length
    }

    /// `HTTP/1.1 404 Not Found` → 404; `HTTP/2 200` → 200; 0 when there is no three-digit code.
    static func statusCode(of line: String) -> Int {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[1].count == 3, let code = Int(parts[1]) else { return 0 }
        return code
    }
}
