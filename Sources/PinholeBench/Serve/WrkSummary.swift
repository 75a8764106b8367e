import Foundation

/// What one `wrk` run measured, as its script's `done` function prints it (``WrkRun``): counts, bytes, errors
/// and latency percentiles in microseconds.
public struct WrkSummary: Sendable, Codable, Hashable {
    /// Answers received (any status).
    public var requests: Int
    public var durationMicroseconds: Int
    public var bytes: Int
    public var connectErrors: Int
    public var readErrors: Int
    public var writeErrors: Int
    /// Answers with a status of 400 or more.
    public var statusErrors: Int
    public var timeouts: Int
    public var meanMicroseconds: Double
    public var maxMicroseconds: Int
    public var p50Microseconds: Int
    public var p90Microseconds: Int
    public var p95Microseconds: Int
    public var p99Microseconds: Int
    /// How many times a thread came to the end of its share of the paths and started again (0: every request
    /// was for a path not asked before in this run).
    public var wrapped: Int

    /// Answers per second over the run.
    public var requestsPerSecond: Double {
        durationMicroseconds > 0 ? Double(requests) / (Double(durationMicroseconds) / 1_000_000) : 0
    }

    /// Socket errors, timeouts and error statuses together.
    public var errors: Int { connectErrors + readErrors + writeErrors + statusErrors + timeouts }

    /// The figures in wrk's output: the line that starts with ``WrkRun/marker``.
    ///
    /// - Throws: ``BenchServeError`` when no such line is there or it is not the expected JSON.
    public static func parse(_ output: String) throws -> WrkSummary {
        guard
            let line = output.split(whereSeparator: \.isNewline).last(where: { $0.hasPrefix(WrkRun.marker) })
        else {
            throw BenchServeError("wrk printed no summary line (\(output.prefix(200)))")
        }
        do {
            return try JSONDecoder().decode(WrkSummary.self, from: Data(line.dropFirst(WrkRun.marker.count).utf8))
        } catch {
            throw BenchServeError("wrk's summary line is not the expected JSON: \(line)")
        }
    }
}

/// Why `pinhole bench serve` could not measure something (a tool missing or failing, a server that did not
/// start).
public struct BenchServeError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
