import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A one-line progress bar on stderr, redrawn in place (`\r`), shown only when stderr is a terminal.
///
/// With a known total it draws a bar, the count, the rate and an ETA:
/// `[##########--------------------] 420/1000  12.3 images/s  ETA 0:47  3 failed  20 skipped`.
/// With an unknown total (a list read from a pipe) it shows the count and the rate, never an ETA:
/// `420 done  12.3 images/s  3 failed`. The rate counts inputs processed (written or failed) per second
/// since the start; skipped inputs (`--skip-existing`) count towards the total but not the rate, and the
/// ETA is the inputs left divided by that rate.
///
/// Not thread-safe: drive it from one task, or under a lock (``render(finished:failed:skipped:total:)``
/// returns the text instead of writing it, for callers that write elsewhere).
struct ProgressBar {
    /// Whether anything is drawn: stderr is a terminal.
    let isEnabled: Bool
    private static let width = 30
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant?

    /// A bar drawn when `isEnabled` (by default: when stderr is a terminal).
    init(isEnabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.isEnabled = isEnabled
        self.start = clock.now
    }

    /// Redraws the bar; at most 20 times a second, and always for the last item.
    mutating func update(finished: Int, failed: Int, total: Int) {
        if let text = render(finished: finished, failed: failed, skipped: 0, total: total) { write(text) }
    }

    /// The text that redraws the bar (starting with `\r`), or `nil` when disabled or drawn less than 50 ms ago
    /// (unless `finished` reached `total`).
    ///
    /// - Parameters:
    ///   - finished: inputs done, whatever became of them (written, failed or skipped).
    ///   - failed: of those, the failures.
    ///   - skipped: of those, the ones skipped because their output existed.
    ///   - total: all inputs of the run, when known.
    mutating func render(finished: Int, failed: Int, skipped: Int, total: Int?) -> String? {
        guard isEnabled else { return nil }
        let now = clock.now
        if let lastDraw, now - lastDraw < .milliseconds(50), total.map({ finished < $0 }) ?? true { return nil }
        lastDraw = now
        let line = Self.line(
            finished: finished, failed: failed, skipped: skipped, total: total,
            seconds: (now - start) / .seconds(1))
        return "\r" + line + "\u{1B}[K"
    }

    /// Erases the bar so the summary starts on a clean line.
    func finish() {
        if let text = erasure { write(text) }
    }

    /// The text that erases the bar, or `nil` when nothing was drawn.
    var erasure: String? {
        guard isEnabled, lastDraw != nil else { return nil }
        return "\r\u{1B}[K"
    }

    /// The bar's text after `seconds` (no escape codes).
    static func line(finished: Int, failed: Int, skipped: Int, total: Int?, seconds: Double) -> String {
        let processed = finished - skipped
        let rate = seconds > 0 ? Double(processed) / seconds : 0
        var parts: [String] = []
        if let total {
            let filled = total > 0 ? min(width, width * finished / total) : width
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            parts.append("[\(bar)] \(finished)/\(total)")
        } else {
            parts.append("\(finished) done")
        }
        parts.append(String(format: "%.1f images/s", rate))
        if let total, finished < total, rate > 0 {
            parts.append("ETA " + duration(Double(total - finished) / rate))
        }
        if failed > 0 { parts.append("\(failed) failed") }
        if skipped > 0 { parts.append("\(skipped) skipped") }
        return parts.joined(separator: "  ")
    }

    /// `0:47`, `12:05`, `3:02:09` (hours only when needed); rounded up to the second.
    static func duration(_ seconds: Double) -> String {
        let whole = Int(min(seconds.rounded(.up), 359_999))
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, secs)
            : String(format: "%d:%02d", minutes, secs)
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
