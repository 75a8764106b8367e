import Foundation
import Pinhole
import PinholeShared

/// Histograms of the pipeline's stage times over the server's answers (``ImageTaskMetrics``), one per stage,
/// exported as `pinhole_stage_seconds{stage="decode",le="…"}`, with a count of answers by source
/// (`pinhole_answers_by_source_total{source="network"}`). Thread-safe.
final class StageHistograms: Sendable {
    /// Upper bounds of the buckets, in seconds (stages run from microseconds, a lookup, to seconds, a download).
    static let buckets: [Double] = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Histogram {
        var counts = [Int](repeating: 0, count: StageHistograms.buckets.count)
        var count = 0
        var sum = 0.0
    }

    private struct State {
        var stages: [ImageTaskMetrics.Stage: Histogram] = [:]
        var sources: [ImageTaskMetrics.Source: Int] = [:]
    }

    private let state = Locked(State())

    /// Adds every stage `metrics` has, and its source.
    func record(_ metrics: ImageTaskMetrics) {
        state.withLock { state in
            if let source = metrics.source { state.sources[source, default: 0] += 1 }
            for (stage, duration) in metrics.stages {
                let seconds = duration / .seconds(1)
                var histogram = state.stages[stage] ?? Histogram()
                histogram.count += 1
                histogram.sum += seconds
                for (index, bound) in Self.buckets.enumerated() where seconds <= bound { histogram.counts[index] += 1 }
                state.stages[stage] = histogram
            }
        }
    }

    /// The exposition families, through `metric` (name without `pinhole_`, type, help, samples); stages and
    /// sources that never occurred are left out.
    func render(into metric: (String, String, String, [(labels: String, value: String)]) -> Void) {
        let state = self.state.withLock { $0 }
        var samples: [(labels: String, value: String)] = []
        for stage in ImageTaskMetrics.Stage.allCases {
            guard let histogram = state.stages[stage] else { continue }
            let name = stage.rawValue
            for (index, bound) in Self.buckets.enumerated() {
                samples.append(("_bucket{stage=\"\(name)\",le=\"\(bound)\"}", "\(histogram.counts[index])"))
            }
            samples.append(("_bucket{stage=\"\(name)\",le=\"+Inf\"}", "\(histogram.count)"))
            samples.append(("_sum{stage=\"\(name)\"}", "\(histogram.sum)"))
            samples.append(("_count{stage=\"\(name)\"}", "\(histogram.count)"))
        }
        metric(
            "stage_seconds", "histogram", "Time of each pipeline stage of the images answers were made from.", samples)
        metric(
            "answers_by_source_total", "counter", "Images answers were made from, by where the pipeline found them.",
            ImageTaskMetrics.Source.allCases.compactMap { source in
                state.sources[source].map { ("{source=\"\(source.rawValue)\"}", "\($0)") }
            })
    }
}
