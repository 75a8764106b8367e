public import Foundation

/// A processing URL in imgproxy's open-source format, parsed: the signature, the options, the source and the
/// extension.
///
/// Two shapes (<https://docs.imgproxy.net/usage/processing>):
/// - `/%signature/%options/plain/%percent-encoded-source[@%extension]`
/// - `/%signature/%options/%base64url-source[.%extension]` (the base64 may be split by `/`; padding optional)
///
/// Options are `/`-separated `name:arg1:arg2` segments (``ProcessingOptions``); the source must be `http` or
/// `https`. The signature covers ``signedPath``, the bytes after the signature segment as sent.
public struct ProcessingURL: Sendable, Equatable {
    /// The first segment, as sent (base64url of the HMAC, or anything when unsigned URLs are allowed).
    public var signature: String
    /// Everything after the signature segment, starting with `/`, not decoded: what the signature covers.
    public var signedPath: String
    /// The processing options.
    public var options: ProcessingOptions
    /// The source image's URL.
    public var source: URL

    /// Longest accepted source URL, in bytes.
    public static let maxSourceLength = 4096

    /// Parses the path of a request target (no query).
    ///
    /// - Throws: ``ProcessingURLError`` naming what is wrong: too few segments, an unknown or malformed option,
    ///   a source that is not base64url or not an `http(s)` URL, an unknown extension.
    public static func parse(_ path: Substring) throws(ProcessingURLError) -> ProcessingURL {
        guard path.hasPrefix("/") else { throw .invalid("the path must start with /") }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 2, !segments[0].isEmpty else {
            throw .invalid("expected /signature/options/source")
        }
        let signature = String(segments[0])
        var options = ProcessingOptions()
        var index = 1
        var sourceParts: ArraySlice<Substring> = []
        var isPlain = false
        while index < segments.count {
            let segment = segments[index]
            if segment == "plain" {
                isPlain = true
                sourceParts = segments[(index + 1)...]
                break
            }
            if segment.contains(":") {
                try options.apply(segment)
                index += 1
                continue
            }
            sourceParts = segments[index...]
            break
        }
        guard !sourceParts.isEmpty, !sourceParts.allSatisfy(\.isEmpty) else { throw .invalid("no source URL") }
        let (sourceText, extensionName) = isPlain ? try plainSource(sourceParts) : try base64Source(sourceParts)
        if let extensionName {
            guard let format = OutputFormat(extension: extensionName) else {
                throw ProcessingURLError("unsupported_format", "unknown output extension '\(extensionName)'")
            }
            options.format = format
        }
        let source = try checkedSource(sourceText)
        return ProcessingURL(
            signature: signature, signedPath: String(path.dropFirst(signature.count + 1)), options: options,
            source: source)
    }

    /// `plain/…`: percent-decoded after the extension (the last `@`) is split off.
    static func plainSource(_ parts: ArraySlice<Substring>) throws(ProcessingURLError) -> (String, String?) {
        var text = parts.joined(separator: "/")
        var extensionName: String?
        if let at = text.lastIndex(of: "@") {
            extensionName = String(text[text.index(after: at)...])
            text = String(text[..<at])
        }
        guard let decoded = text.removingPercentEncoding else {
            throw .invalid("the plain source is not valid percent-encoding")
        }
        return (decoded, extensionName)
    }

    /// base64url (the segments joined, padding optional), the extension after the last `.`.
    static func base64Source(_ parts: ArraySlice<Substring>) throws(ProcessingURLError) -> (String, String?) {
        var text = parts.joined()
        var extensionName: String?
        if let dot = text.lastIndex(of: ".") {
            extensionName = String(text[text.index(after: dot)...])
            text = String(text[..<dot])
        }
        guard text.utf8.count <= maxSourceLength * 2, let bytes = Base64URL.decode(text),
            let decoded = String(bytes: bytes, encoding: .utf8)
        else { throw .invalid("the source is not base64url-encoded UTF-8") }
        return (decoded, extensionName)
    }

    /// An absolute `http(s)` URL with a host, at most ``maxSourceLength`` bytes, without control characters.
    static func checkedSource(_ text: String) throws(ProcessingURLError) -> URL {
        guard text.utf8.count <= maxSourceLength else { throw .invalid("the source URL is too long") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
            throw .invalid("the source URL contains spaces or control characters")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else { throw .invalid("the source must be an absolute http or https URL") }
        return url
    }
}
