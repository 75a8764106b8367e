import Foundation
import Pinhole
import Testing

/// Screen snapshots as text files in `Tests/Fixtures/gallery/NAME.txt`: one screen line per
/// file line, ESC written as `␛` so the files read well in a diff.
///
/// A missing file, or any run with `PINHOLE_RECORD_SNAPSHOTS=1`, records the snapshot and fails the test
/// saying so; run again without the variable to check against it.
enum Snapshot {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gallery")

    static func text(_ lines: [String]) -> String {
        lines.map { $0.replacingOccurrences(of: "\u{1B}", with: "␛") }.joined(separator: "\n") + "\n"
    }

    static func expect(_ lines: [String], matches name: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let url = directory.appendingPathComponent("\(name).txt")
        let actual = text(lines)
        let record = ProcessInfo.processInfo.environment["PINHOLE_RECORD_SNAPSHOTS"] == "1"
        let stored: String? = try await WorkerThreadPool.io.run {
            record ? nil : try? String(contentsOf: url, encoding: .utf8)
        }
        guard let stored else {
            try await WorkerThreadPool.io.run {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try actual.write(to: url, atomically: true, encoding: .utf8)
            }
            Issue.record(
                "Recorded snapshot \(name).txt; run the test again without PINHOLE_RECORD_SNAPSHOTS",
                sourceLocation: sourceLocation)
            return
        }
        if stored != actual {
            let storedLines = stored.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first =
                Array(zip(storedLines, actualLines)).firstIndex { $0 != $1 }
                ?? min(storedLines.count, actualLines.count)
            let stored = first < storedLines.count ? String(storedLines[first]) : "<none>"
            let shown = first < actualLines.count ? String(actualLines[first]) : "<none>"
            Issue.record(
                """
                Snapshot \(name).txt differs first at line \(first + 1):
                  stored: \(stored)
                  actual: \(shown)
                Re-record with PINHOLE_RECORD_SNAPSHOTS=1 if the change is intended.
                """,
                sourceLocation: sourceLocation)
        }
    }
}
