import Foundation

/// `pinhole bench experiments`: the seeds' three concurrency experiments, measured on this machine and printed
/// as tables (see ``SumExperiment``, ``WaitsExperiment`` and ``ResponseDelayExperiment``).
public struct ConcurrencyExperiments: Sendable {
    /// Every figure, encodable as one JSON object.
    public struct Result: Sendable, Codable {
        var sum: [SumExperiment.Row]
        var waits: [WaitsExperiment.Row]
        var responseDelay: [ResponseDelayExperiment.Row]
        var cores: Int
    }

    public init() {}

    /// Runs (a), (b) and (c) in that order; `log` receives progress lines.
    ///
    /// - Throws: `PinholeTestServer.StartError` or a loader error when experiment (c)'s server fails.
    public func run(log: @Sendable (String) -> Void = { _ in }) async throws -> Result {
        let sum = await SumExperiment().run(log: log)
        let waits = await WaitsExperiment().run(log: log)
        let delay = try await ResponseDelayExperiment().run(log: log)
        return Result(sum: sum, waits: waits, responseDelay: delay, cores: ProcessInfo.processInfo.activeProcessorCount)
    }
}

extension ConcurrencyExperiments.Result {
    /// The three tables as text.
    public var text: String {
        var lines = ["(a) summing 50,000,000 Doubles (median of 3, \(cores) cores)"]
        lines += Self.table(
            ["variant", "ms", "speed-up vs serial"],
            sum.map { [$0.variant, String(format: "%.1f", $0.medianMs), String(format: "%.2f×", $0.speedup)] })
        lines += ["", "(b) N concurrent 200 ms waits"]
        lines += Self.table(
            ["variant", "N", "threads (baseline → peak)", "total ms", "done"],
            waits.map {
                [
                    $0.variant, "\($0.waits)", "\($0.baselineThreads) → \($0.peakThreads)",
                    String(format: "%.0f", $0.totalMs) + ($0.timedOut ? " (cap)" : ""), "\($0.completed)/\($0.waits)",
                ]
            })
        lines += ["", "(c) a loopback response due while every core runs a 3 s CPU job (median of 3)"]
        lines += Self.table(
            ["variant", "response handled late by (ms)"],
            responseDelay.map { [$0.variant, String(format: "%.0f", $0.delayMs)] })
        return lines.joined(separator: "\n")
    }

    static func table(_ header: [String], _ rows: [[String]]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let render = { (row: [String]) in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ")
        }
        let head = render(header)
        return [head, String(repeating: "-", count: head.count)] + rows.map(render)
    }
}
