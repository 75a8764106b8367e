import Foundation
import Pinhole

/// An exact number of requests, `parallel` at a time, made by one `curl --parallel` process (wrk runs for a
/// duration, not a count): the priming pass of a steady run and the hot-key rounds.
struct CurlRound: Sendable {
    /// Answers by status code.
    var statuses: [Int: Int]
    /// Each request's total time in seconds, sorted.
    var seconds: [Double]
    /// Wall time of the whole round.
    var wallSeconds: Double

    var requests: Int { seconds.count }
    /// Answers that were not 200.
    var errors: Int { statuses.filter { $0.key != 200 }.values.reduce(0, +) }
    var requestsPerSecond: Double { wallSeconds > 0 ? Double(requests) / wallSeconds : 0 }

    /// The `fraction` percentile (0.95 = p95) of the request times, nearest rank; 0 when none.
    func percentile(_ fraction: Double) -> Double {
        guard !seconds.isEmpty else { return 0 }
        let rank = Int((fraction * Double(seconds.count)).rounded(.up))
        return seconds[min(seconds.count, max(1, rank)) - 1]
    }

    /// The round as curl's `-w '%{http_code} %{time_total}\n'` lines report it (other lines are ignored).
    static func parse(_ output: String, wallSeconds: Double) -> CurlRound {
        var statuses: [Int: Int] = [:]
        var seconds: [Double] = []
        for line in output.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let status = Int(fields[0]), let time = Double(fields[1]) else { continue }
            statuses[status, default: 0] += 1
            seconds.append(time)
        }
        return CurlRound(statuses: statuses, seconds: seconds.sorted(), wallSeconds: wallSeconds)
    }

    /// curl's config (`-K`): one `url` and `output = /dev/null` per request, and the header when given.
    static func configuration(urls: [String], accept: String?) -> String {
        var text = accept.map { "header = \"Accept: \($0)\"\n" } ?? ""
        for url in urls { text += "url = \"\(url)\"\noutput = \"/dev/null\"\n" }
        return text
    }

    /// Requests every URL of `urls` once, `parallel` at a time.
    ///
    /// - Throws: when curl cannot start or its config cannot be written.
    static func run(urls: [String], accept: String?, parallel: Int, in directory: URL) async throws -> CurlRound {
        let file = directory.appendingPathComponent("curl-\(UUID().uuidString).conf").path
        let text = configuration(urls: urls, accept: accept)
        try await WorkerThreadPool.io.run { try text.write(toFile: file, atomically: true, encoding: .utf8) }
        let result = try await ChildProcess.run(
            "/usr/bin/curl",
            [
                "-s", "--parallel", "--parallel-immediate", "--parallel-max", String(parallel), "--max-time", "120",
                "-w", "%{http_code} %{time_total}\\n", "-K", file,
            ], capturesOutput: true)
        return parse(result.standardOutput, wallSeconds: result.seconds)
    }
}
