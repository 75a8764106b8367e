import COpenSSL
import Foundation

/// Entity tags for encoded answers and the `If-None-Match` comparison (RFC 9110 §8.8.3, §13.1.2).
enum EntityTag {
    /// `"…"`: the first 16 bytes of the SHA-256 of `body` (OpenSSL), in hex.
    static func strong(for body: Data) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        body.withUnsafeBytes { bytes in
            _ = SHA256(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &digest)
        }
        return "\"" + digest.prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
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
