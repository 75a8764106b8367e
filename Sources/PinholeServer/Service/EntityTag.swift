import Foundation
import PinholeShared

/// Entity tags for encoded answers and the `If-None-Match` comparison (RFC 9110 §8.8.3, §13.1.2).
enum EntityTag {
    /// `"LENGTH-HASH"`: the body's length and its 64-bit FNV-1a, in hex. An entity tag needs to tell two bodies
    /// apart, not to resist an attacker; and no OpenSSL call is made on the answer's path (work abandoned at a
    /// deadline can end after OpenSSL's exit-time cleanup, and an OpenSSL call then crashes).
    static func strong(for body: Data) -> String {
        "\"\(String(body.count, radix: 16))-\(String(StableHash.fnv1a64(body), radix: 16))\""
    }

    /// Whether an `If-None-Match` value matches `etag` with the weak comparison: `*`, or any listed tag whose
    /// opaque part equals it (`W/` ignored).
    static func ifNoneMatch(_ header: String, matches etag: String) -> Bool {
        let opaque = { (tag: Substring) -> Substring in
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return Substring(trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed)
        }
        return header.split(separator: ",").contains { tag in
            let value = opaque(tag)
            return value == "*" || value == Substring(etag)
        }
    }
}
