import Foundation

extension ThumbnailReport {
    /// The human summary printed at the end of a run (without `--json`).
    ///
    /// ```
    /// 54 thumbnails written to out/thumbnails, 2 failed (56 inputs, 2 jobs)
    /// 3.21 s, 16.8 images/s; 53.1 MB in, 1.2 MB out; peak RSS 142.3 MB
    /// Failed:
    ///   bad/a.jpg: truncated: the data ends before the image does
    /// Contact sheet: out/contact-sheet.jpg (1928×2936, 812.4 kB)
    /// ```
    var summary: String {
        let inputCount = succeeded + failed
        var lines = [
            "\(succeeded) thumbnail\(succeeded == 1 ? "" : "s") written to \(outputDirectory), \(failed) failed "
                + "(\(inputCount) input\(inputCount == 1 ? "" : "s"), \(jobs) job\(jobs == 1 ? "" : "s"))",
            String(format: "%.2f s, %.1f images/s; ", seconds, imagesPerSecond)
                + "\(Self.bytes(bytesIn)) in, \(Self.bytes(bytesOut)) out; peak RSS \(Self.bytes(peakRSSBytes))",
        ]
        if inputCount == 0 { lines.append("No images found in the inputs.") }
        if !errors.isEmpty {
            lines.append("Failed:")
            lines += errors.map { "  \($0.input): \($0.kind): \($0.message)" }
        }
        if let contactSheet {
            lines.append(
                "Contact sheet: \(contactSheet.output) (\(contactSheet.width)×\(contactSheet.height), "
                    + "\(Self.bytes(contactSheet.bytes)))")
        }
        return lines.joined(separator: "\n")
    }

    /// The report as one JSON object with sorted keys.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// `53.1 MB`, `812.4 kB`, `512 B` (1 kB = 1000 bytes).
    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1000: "\(count) B"
        case ..<1_000_000: String(format: "%.1f kB", Double(count) / 1e3)
        case ..<1_000_000_000: String(format: "%.1f MB", Double(count) / 1e6)
        default: String(format: "%.2f GB", Double(count) / 1e9)
        }
    }
}
