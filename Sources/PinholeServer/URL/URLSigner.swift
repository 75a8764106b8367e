import COpenSSL
import Foundation

/// Signs and checks processing URLs as imgproxy does: the signature is base64url (no padding) of
/// HMAC-SHA256(key, salt + path), where path is everything after the signature segment
/// (<https://docs.imgproxy.net/usage/signing_url>). OpenSSL computes the HMAC and compares in constant time
/// (`CRYPTO_memcmp`).
public struct URLSigner: Sendable {
    /// Why a key or salt was refused.
    public struct KeyError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    let key: [UInt8]
    let salt: [UInt8]

    /// - Parameters:
    ///   - keyHex: the key as hexadecimal text (imgproxy's `IMGPROXY_KEY`), at least 1 byte.
    ///   - saltHex: the salt as hexadecimal text (`IMGPROXY_SALT`); may be empty.
    /// - Throws: ``KeyError`` when either is not hexadecimal or the key is empty.
    public init(keyHex: String, saltHex: String) throws {
        guard let key = Self.bytes(hex: keyHex), !key.isEmpty else {
            throw KeyError(description: "the key must be a non-empty hexadecimal string")
        }
        guard let salt = Self.bytes(hex: saltHex) else {
            throw KeyError(description: "the salt must be a hexadecimal string")
        }
        self.key = key
        self.salt = salt
    }

    /// The signature of `path` (which starts with `/`, the part after the signature segment).
    public func signature(for path: some StringProtocol) -> String {
        Base64URL.encode(digest(of: path) ?? [])
    }

    /// `path` with its signature in front: `/signature/path…`.
    public func signedPath(_ path: some StringProtocol) -> String {
        "/\(signature(for: path))\(path)"
    }

    /// Whether `signature` is the signature of `path`, compared in constant time once both are 32 bytes.
    ///
    /// Only the canonical spelling counts (43 base64url characters, optionally one `=`): `=` elsewhere or the last
    /// character's unused bits set would decode to the same bytes and make other URLs out of one signed URL.
    public func isValid(signature: String, for path: some StringProtocol) -> Bool {
        guard let given = Base64URL.decode(signature), given.count == 32, let expected = digest(of: path) else {
            return false
        }
        let canonical = Base64URL.encode(given)
        guard signature == canonical || signature == canonical + "=" else { return false }
        return given.withUnsafeBytes { lhs in
            expected.withUnsafeBytes { rhs in CRYPTO_memcmp(lhs.baseAddress, rhs.baseAddress, 32) == 0 }
        }
    }

    /// HMAC-SHA256(key, salt + path), or `nil` if OpenSSL fails.
    func digest(of path: some StringProtocol) -> [UInt8]? {
        let message = salt + Array(path.utf8)
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let made = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                HMAC(
                    EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                    messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count, &output,
                    &length)
            }
        }
        guard made != nil, length == 32 else { return nil }
        return Array(output.prefix(32))
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x41...0x46: digit - 0x41 + 10
        case 0x61...0x66: digit - 0x61 + 10
        default: nil
        }
    }
}
