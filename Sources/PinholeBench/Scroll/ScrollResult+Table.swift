import Foundation

extension ScrollResult {
    /// A before/after table like the seeds': one column per result (naive first), one line per figure, and the
    /// Pinhole target with whether the Pinhole column meets it.
    public static func table(_ results: [ScrollResult]) -> String {
        let rank = ["idle": 0, "naive": 1, "unguarded": 2, "pinhole": 3]
        let ordered = results.sorted { rank[$0.strategy, default: 3] < rank[$1.strategy, default: 3] }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let pinhole = ordered.first { $0.strategy == "pinhole" }
        typealias Line = (name: String, value: (ScrollResult) -> String, target: String, met: ((ScrollResult) -> Bool)?)
        let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1e6) }
        let lines: [Line] = [
            (
                "threads (baseline → peak)", { "\($0.baselineThreads) → \($0.peakThreads)" },
                "≤ baseline + \(2 * cores)", { $0.peakThreads <= $0.baselineThreads + 2 * cores }
            ),
            (
                "frame p50 / p99 (60 Hz grid)", { String(format: "%.1f / %.1f ms", $0.frameP50Ms, $0.frameP99Ms) },
                "p99 ≤ 16.7 ms", { $0.frameP99Ms <= 16.7 }
            ),
            ("raw tick p99 / max", { String(format: "%.1f / %.0f ms", $0.rawFrameP99Ms, $0.maxFrameMs) }, "", nil),
            (
                "main-actor work per frame p99 / max",
                {
                    String(format: "%.2f / %.1f ms", $0.mainWorkP99Ms, $0.mainWorkMaxMs)
                }, "p99 ≤ 1 ms", { $0.mainWorkP99Ms <= 1 }
            ),
            (
                "  its main-thread CPU p99 / max",
                {
                    String(format: "%.2f / %.1f ms", $0.mainCPUP99Ms, $0.mainCPUMaxMs)
                }, "", nil
            ),
            (
                "  main-thread CPU, all jobs, p99 / max",
                {
                    String(format: "%.2f / %.1f ms", $0.mainCPUAllJobsP99Ms, $0.mainCPUAllJobsMaxMs)
                }, "", nil
            ),
            ("hitches (> 16.7 ms) / frames", { "\($0.hitches) / \($0.frames)" }, "", nil),
            ("hangs (> 250 ms)", { "\($0.hangs)" }, "0", { $0.hangs == 0 }),
            (
                "RSS (start → peak)", { "\(megabytes($0.startRSSBytes)) → \(megabytes($0.peakRSSBytes))" },
                "≤ start + 8 MB", { $0.peakRSSBytes <= $0.startRSSBytes + 8_000_000 }
            ),
            ("requests started (server)", { "\($0.requestsStarted)" }, "", nil),
            ("completed / cancelled (server)", { "\($0.requestsCompleted) / \($0.requestsCancelled)" }, "", nil),
            ("distinct URLs asked for", { "\($0.distinctURLs)" }, "", nil),
            ("duplicate downloads (client)", { "\($0.duplicateDownloads)" }, "", nil),
            ("images shown", { "\($0.imagesShown)" }, "", nil),
            (
                "wrong-row images",
                { result in
                    let share = 100 * Double(result.wrongRowImages) / Double(max(1, result.imagesShown))
                    return "\(result.wrongRowImages)"
                        + (result.imagesShown > 0 ? String(format: " (%.0f%%)", share) : "")
                }, "0", { $0.wrongRowImages == 0 }
            ),
            ("  of which unreadable codes", { "\($0.unreadableImages)" }, "", nil),
            (
                "bind → image p50 / max",
                {
                    String(format: "%.0f / %.0f ms", $0.bindToImageP50Ms, $0.bindToImageMaxMs)
                }, "", nil
            ),
            (
                "left early: cancelled of left",
                {
                    String(format: "%d of %d (%.1f%%)", $0.leftEarlyCancelled, $0.leftEarly, 100 * $0.cancelledOfLeft)
                }, "≥ 95%", { $0.cancelledOfLeft >= 0.95 }
            ),
            (
                "settle after the scroll", { ($0.timedOut ? "≥ " : "") + String(format: "%.2f s", $0.settleSeconds) },
                "≤ 0.3 s", { $0.settleSeconds <= 0.3 && !$0.timedOut }
            ),
            ("final rows showing own image", { "\($0.finalRowsShowingOwnImage) / \($0.finalVisibleRows)" }, "", nil),
            (
                "run (timed out?)",
                {
                    String(format: "%.1f s", $0.runSeconds) + ($0.timedOut ? " (cap hit)" : "")
                }, "", nil
            ),
            ("load average at the end", { String(format: "%.1f", $0.loadAverage) }, "", nil),
        ]
        let names = [
            "idle": "idle loop (reference)", "naive": "naive (before)", "pinhole": "pinhole (after)",
            "unguarded": "unguarded (no generation check)",
        ]
        let headers =
            [""] + ordered.map { names[$0.strategy] ?? $0.strategy }
            + (pinhole == nil ? [] : ["pinhole target"])
        var rows: [[String]] = [headers]
        for line in lines {
            var row = [line.name] + ordered.map(line.value)
            if let pinhole {
                let verdict = line.met.map { $0(pinhole) ? "met" : "MISSED" } ?? ""
                row.append(line.target.isEmpty ? "" : "\(line.target) \(verdict)")
            }
            rows.append(row)
        }
        let widths = (0..<headers.count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let rendered = rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ")
        }
        let first = ordered.first
        let title =
            first.map {
                "scroll: \($0.rows) rows, \($0.visibleRows) visible, \($0.latencyMs) ms latency, refresh "
                    + ($0.refresh ? "every 400 ms" : "off")
            } ?? "scroll: no results"
        return ([title] + [rendered[0], String(repeating: "-", count: rendered[0].count)] + rendered.dropFirst())
            .joined(separator: "\n")
    }
}
