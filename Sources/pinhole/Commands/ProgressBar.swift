import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on stderr, redrawn in place (`\r`), shown only when stderr is a terminal.
///
/// Not thread-safe: drive it from one task (``ThumbnailCommand/run(progress:)`` calls back on its own task).
struct ProgressBar {
    /// Whether anything is drawn: stderr is a terminal.
    let isEnabled: Bool
    private let width = 30
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
        guard isEnabled else { return }
        let now = clock.now
        if let lastDraw, now - lastDraw < .milliseconds(50), finished < total { return }
        lastDraw = now
        let filled = total > 0 ? width * finished / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let seconds = (now - start) / .seconds(1)
        let rate = seconds > 0 ? Double(finished) / seconds : 0
        let failures = failed > 0 ? "  \(failed) failed" : ""
        write("\r[\(bar)] \(finished)/\(total)  \(String(format: "%.1f", rate)) images/s\(failures)\u{1B}[K")
    }

    /// Erases the bar so the summary starts on a clean line.
    func finish() {
        guard isEnabled, lastDraw != nil else { return }
        write("\r\u{1B}[K")
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
