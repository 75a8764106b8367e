import Foundation

/// An `Accept` header's media ranges with their q-values (RFC 9110 §12.5.1), and the output format chosen from
/// them.
///
/// Precedence: the most specific range that matches a type gives its q (`image/webp` over `image/*` over `*/*`);
/// q=0 refuses a type. Among the acceptable formats the highest q wins, ties broken by the server's preference
/// order. No `Accept` header (or one that matches nothing) means JPEG for an opaque image, PNG for one with alpha.
public struct AcceptHeader: Sendable, Hashable {
    struct Range: Sendable, Hashable {
        var type: String
        var subtype: String
        var quality: Double
    }

    let ranges: [Range]

    /// Parses `value`; a malformed range or parameter is skipped, a malformed q reads as 0 (refused).
    public init(_ value: String?) {
        var ranges: [Range] = []
        for item in (value ?? "").split(separator: ",").prefix(64) {
            let parameters = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let mediaRange = parameters[0].lowercased().split(separator: "/", omittingEmptySubsequences: false)
            guard mediaRange.count == 2, !mediaRange[0].isEmpty, !mediaRange[1].isEmpty else { continue }
            var quality = 1.0
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                quality = Double(pair[1]).flatMap { (0...1).contains($0) ? $0 : nil } ?? 0
            }
            ranges.append(Range(type: String(mediaRange[0]), subtype: String(mediaRange[1]), quality: quality))
        }
        self.ranges = ranges
    }

    /// The q-value of `format`'s media type: the most specific matching range's, or `nil` when none matches.
    public func quality(of format: OutputFormat) -> Double? {
        let subtype = format.rawValue
        if let exact = ranges.first(where: { $0.type == "image" && $0.subtype == subtype }) { return exact.quality }
        if let image = ranges.first(where: { $0.type == "image" && $0.subtype == "*" }) { return image.quality }
        return ranges.first(where: { $0.type == "*" && $0.subtype == "*" })?.quality
    }

    /// The format to send: among `preference` (the server's order, kept only where `hasAlpha` allows it), the
    /// one with the highest q > 0, the earlier on a tie; JPEG (PNG with alpha) when none is acceptable.
    ///
    /// A wildcard alone (`*/*`, `image/*`) picks JPEG or PNG, the formats every client decodes: only a client
    /// that names WebP or AVIF gets them.
    public func negotiate(preference: [OutputFormat], hasAlpha: Bool) -> OutputFormat {
        let fallback: OutputFormat = hasAlpha ? .png : .jpeg
        var best: (format: OutputFormat, quality: Double)?
        for format in preference where !hasAlpha || format.keepsAlpha {
            let named = ranges.contains { $0.type == "image" && $0.subtype == format.rawValue }
            guard named || format == fallback, let quality = quality(of: format), quality > 0 else { continue }
            if quality > (best?.quality ?? 0) { best = (format, quality) }
        }
        return best?.format ?? fallback
    }

    /// The format of an animated answer: WebP when the header names it with q > 0 (as a still's negotiation
    /// asks), else GIF, which every client plays, unless `Accept` refuses it (q=0 for GIF): then `nil`, a still.
    public var animationFormat: OutputFormat? {
        let namesWebP = ranges.contains { $0.type == "image" && $0.subtype == OutputFormat.webp.rawValue }
        if namesWebP, let quality = quality(of: .webp), quality > 0 { return .webp }
        return quality(of: .gif) == 0 ? nil : .gif
    }
}
