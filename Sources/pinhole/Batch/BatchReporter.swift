import Foundation
import Pinhole
import PinholeShared

/// Where a batch run's results go as they happen: the counters of the ``BatchSummary``, one `--jsonl` line
/// per input (or one stderr line per failure for people), and the progress bar.
///
/// Every write happens on one thread of its own (``pool``), in the order results arrive; ``record(_:)``
/// returns once its line is written, so a slow reader of stdout slows the run down instead of piling lines
/// up in memory, and a line is out (one `write(2)`, nothing buffered) before the next input is taken.
/// Safe from any isolation.
final class BatchReporter: Sendable {
    /// What is printed per input.
    enum Style: Sendable {
        /// One JSON object per line on stdout (`--jsonl`).
        case jsonLines
        /// `pinhole: INPUT: KIND: MESSAGE` on stderr for each failure (the human summary follows at the end).
        case failureLines
        /// Nothing per input (`--json` prints the summary only).
        case quiet
    }

    /// The counters so far.
    struct Counters: Sendable, Equatable {
        /// Inputs read (all shards).
        var listed = 0
        /// Inputs of this run, when known before they are all done (for the ETA).
        var total: Int?
        var succeeded = 0
        var failed = 0
        var skipped = 0
        /// Bytes of thumbnails written.
        var bytesOut = 0

        /// Inputs done, whatever became of them.
        var finished: Int { succeeded + failed + skipped }
    }

    /// Blocking writers of stdout and stderr (the standard streams by default; tests capture them).
    struct Output: Sendable {
        var standardOutput: @Sendable (Data) -> Void
        var standardError: @Sendable (Data) -> Void

        /// The process's stdout and stderr, written with `write(2)` (unbuffered: each line is out at once).
        static let standard = Output(
            standardOutput: { FileHandle.standardOutput.write($0) },
            standardError: { FileHandle.standardError.write($0) })
    }

    private struct State {
        var counters = Counters()
        var progressBar: ProgressBar?
    }

    /// The thread every write happens on, shared by the process.
    static let pool = WorkerThreadPool(threadCount: 1, name: "pinhole-report")

    let style: Style
    private let output: Output
    private let state: Locked<State>
    private let onProgress: (@Sendable (Counters) -> Void)?

    /// - Parameters:
    ///   - progressBar: drawn on stderr after each input (when enabled).
    ///   - onProgress: called on the reporter's thread with the counters after each input (tests).
    init(
        style: Style, output: Output = .standard, progressBar: ProgressBar? = nil,
        onProgress: (@Sendable (Counters) -> Void)? = nil
    ) {
        self.style = style
        self.output = output
        self.onProgress = onProgress
        state = Locked(State(progressBar: progressBar))
    }

    /// The counters now.
    var counters: Counters { state.withLock { $0.counters } }

    /// Counts `count` inputs read (before they are queued).
    func countListed(_ count: Int = 1) {
        state.withLock { $0.counters.listed += count }
    }

    /// Sets the number of inputs of this run, once known (the progress bar then shows a bar and an ETA).
    func setTotal(_ total: Int) {
        state.withLock { $0.counters.total = total }
    }

    /// Records one finished input: counts it, prints its line, redraws the progress bar; returns once written.
    func record(_ record: BatchRecord) async {
        try? await Self.pool.run { [self] in self.apply(record) }
    }

    /// Erases the progress bar (before the summary is printed).
    func finishProgress() async {
        try? await Self.pool.run { [self] in
            if let text = state.withLock({ $0.progressBar?.erasure }) { output.standardError(Data(text.utf8)) }
        }
    }

    /// Writes `data` on stdout after every line recorded so far.
    func writeStandardOutput(_ data: Data) async {
        try? await Self.pool.run { [self] in output.standardOutput(data) }
    }

    /// Runs on ``pool``'s thread.
    private func apply(_ record: BatchRecord) {
        let (counters, bar, erasure) = state.withLock { state in
            if record.isFailure {
                state.counters.failed += 1
            } else if record.skipped == true {
                state.counters.skipped += 1
            } else {
                state.counters.succeeded += 1
                state.counters.bytesOut += record.bytes ?? 0
            }
            let counters = state.counters
            let erasure = record.isFailure && style == .failureLines ? state.progressBar?.erasure : nil
            let bar = state.progressBar?.render(
                finished: counters.finished, failed: counters.failed,
                skipped: counters.skipped, total: counters.total)
            return (counters, bar, erasure)
        }
        switch style {
        case .jsonLines:
            if let line = try? Self.line(record) { output.standardOutput(line) }
        case .failureLines:
            if let error = record.error {
                let text = (erasure ?? "") + "pinhole: \(record.input): \(error.kind): \(error.message)\n"
                output.standardError(Data(text.utf8))
            }
        case .quiet:
            break
        }
        if let bar { output.standardError(Data(bar.utf8)) }
        onProgress?(counters)
    }

    /// `record` as one line of JSON (keys sorted, slashes unescaped) and a newline.
    static func line(_ record: BatchRecord) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(record)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}
