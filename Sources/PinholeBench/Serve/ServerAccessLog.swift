import Foundation

/// The access log of `pinhole serve` (one JSON object a line on its stdout): the server's own time from a
/// request's head to its answer (`ms`), by status, for the requests whose target holds a mark. Beside the
/// client's latencies it tells the server's share of them from the client's and the network's.
enum ServerAccessLog {
    struct Line: Decodable {
        var target: String
        var ms: Double
        var status: Int
    }

    /// Latencies of the lines whose target contains `mark`, keyed `"200"`, `"503"` and `"other"` (nearest-rank
    /// percentiles, as the open-loop client computes them); lines that are not JSON are skipped.
    static func latencies(_ text: String, targetContaining mark: String) -> [String: OpenLoopRun.Latencies] {
        var classes: [String: [Double]] = ["200": [], "503": [], "other": []]
        let decoder = JSONDecoder()
        for line in text.split(whereSeparator: \.isNewline) where line.contains(mark) {
            guard let entry = try? decoder.decode(Line.self, from: Data(line.utf8)), entry.target.contains(mark)
            else { continue }
            let name = entry.status == 200 || entry.status == 503 ? String(entry.status) : "other"
            classes[name, default: []].append(entry.ms)
        }
        return classes.mapValues { summary($0) }
    }

    static func summary(_ values: [Double]) -> OpenLoopRun.Latencies {
        let sorted = values.sorted()
        guard let last = sorted.last else { return .none }
        let rank = { (fraction: Double) in
            sorted[min(sorted.count, max(1, Int((fraction * Double(sorted.count)).rounded(.up)))) - 1]
        }
        return OpenLoopRun.Latencies(
            count: sorted.count, p50Milliseconds: rank(0.5), p99Milliseconds: rank(0.99), maxMilliseconds: last)
    }
}
