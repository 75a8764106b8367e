import Foundation
import Pinhole

/// One open-loop load run: `scripts/open-loop-load.py` sends request i of a URL list at start + i / rate, whatever
/// the answers before it do, and measures each latency from that scheduled time (so a server that falls behind
/// is charged for the wait, with no coordinated omission), then prints counts and latencies by status.
public struct OpenLoopRun: Sendable {
    /// What the run asks for.
    public struct Plan: Sendable {
        /// Full URLs, asked in order (the list wraps when shorter than rate × seconds; ``Summary/wrapped`` says).
        public var urls: [String]
        /// Requests per second.
        public var rate: Double
        /// Seconds of sending.
        public var seconds: Double
        /// The `Accept` header sent, or `nil` for none.
        public var accept: String?

        public init(urls: [String], rate: Double, seconds: Double, accept: String? = nil) {
            self.urls = urls
            self.rate = rate
            self.seconds = seconds
            self.accept = accept
        }
    }

    /// Latencies of the answers of one class, in milliseconds from their scheduled times.
    public struct Latencies: Sendable, Codable, Hashable {
        public var count: Int
        public var p50Milliseconds: Double
        public var p99Milliseconds: Double
        public var maxMilliseconds: Double

        public init(count: Int, p50Milliseconds: Double, p99Milliseconds: Double, maxMilliseconds: Double) {
            self.count = count
            self.p50Milliseconds = p50Milliseconds
            self.p99Milliseconds = p99Milliseconds
            self.maxMilliseconds = maxMilliseconds
        }

        static let none = Latencies(count: 0, p50Milliseconds: 0, p99Milliseconds: 0, maxMilliseconds: 0)
    }

    /// What the script printed.
    public struct Summary: Sendable, Codable, Hashable {
        public var rate: Double
        public var seconds: Double
        /// Requests scheduled (rate × seconds) and those that ended (answered or failed).
        public var scheduled: Int
        public var completed: Int
        /// Times the URL list was started again.
        public var wrapped: Int
        /// From the first scheduled time to the last answer.
        public var wallSeconds: Double
        /// The latest a request was sent after its scheduled time (the client's own delay, counted in latencies).
        public var maxSendLagMilliseconds: Double
        /// Whether the client ran at a raised priority (nice -10, when allowed).
        public var niceRaised: Bool
        /// Requests by status (`"200"`, `"503"`, …; `"error"` for a timeout or a reset).
        public var statuses: [String: Int]
        /// Latencies of the `"200"`, `"503"` and `"other"` answers (other statuses and errors).
        public var byClass: [String: Latencies]

        /// The latencies of `status` (`"200"`, `"503"`, `"other"`), empty when none.
        public func latencies(_ status: String) -> Latencies { byClass[status] ?? .none }

        /// Answers with status 200 per second of the run.
        public var okPerSecond: Double { wallSeconds > 0 ? Double(latencies("200").count) / wallSeconds : 0 }
    }

    /// Runs `python3 script` for `plan`, the URL list written in `directory`.
    ///
    /// - Throws: ``BenchServeError`` when the script cannot start, exits non-zero, or prints no summary.
    static func run(_ plan: Plan, python: String, script: String, in directory: URL) async throws -> Summary {
        let urlsFile = directory.appendingPathComponent("open-loop-\(UUID().uuidString).urls").path
        let list = plan.urls.joined(separator: "\n") + "\n"
        try await WorkerThreadPool.io.run { try list.write(toFile: urlsFile, atomically: true, encoding: .utf8) }
        var arguments = [
            script, "--urls", urlsFile, "--rate", String(plan.rate), "--seconds", String(plan.seconds),
        ]
        if let accept = plan.accept { arguments += ["--accept", accept] }
        let result = try await ChildProcess.run(python, arguments, capturesOutput: true)
        guard result.status == 0 else { throw BenchServeError("open-loop-load.py exited with status \(result.status)") }
        return try parse(result.standardOutput)
    }

    /// The summary in the script's output (its last line).
    ///
    /// - Throws: ``BenchServeError`` when there is none.
    static func parse(_ output: String) throws -> Summary {
        guard let line = output.split(whereSeparator: \.isNewline).last,
            let summary = try? JSONDecoder().decode(Summary.self, from: Data(line.utf8))
        else { throw BenchServeError("open-loop-load.py printed no summary: \(output.prefix(200))") }
        return summary
    }
}
