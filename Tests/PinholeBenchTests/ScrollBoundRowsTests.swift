import Testing

@testable import PinholeBench

/// The scroll benchmark encodes every image a run can ask for before it is measured (``ScrollBenchmark/boundRows()``):
/// a row and generation missed there would be encoded on a server thread during the run.
@MainActor
struct ScrollBoundRowsTests {
    @Test(arguments: [false, true])
    func everyRowAndGenerationTheFrameLoopBindsIsPrepared(refresh: Bool) {
        // Given the default flick, with or without refreshes every 0.4 s
        var configuration = ScrollBenchmark.Configuration()
        configuration.refresh = refresh
        let benchmark = ScrollBenchmark(configuration: configuration)
        let bound = benchmark.boundRows()

        // When the frame loop's ticks are replayed at 60 Hz, generation advancing as `ScrollRun` advances it
        // (at each refresh time, while the script runs), until 2 s after the script ends
        let script = benchmark.script
        var generation = 0
        var nextRefresh = configuration.refreshIntervalSeconds
        var missed: [String] = []
        for tick in 0..<Int((configuration.durationSeconds + 2) * 60) {
            let now = Double(tick) / 60
            if refresh, now >= nextRefresh, !script.hasEnded(atSeconds: now) {
                generation += 1
                while nextRefresh <= now { nextRefresh += configuration.refreshIntervalSeconds }
            }
            for row in script.visibleRows(atSeconds: now)
            where !bound.contains(where: { $0.generation == generation && $0.rows.contains(row) }) {
                missed.append("row \(row) generation \(generation) at \(now) s")
            }
        }

        // Then every row bound in some tick was prepared, at its generation
        #expect(missed.isEmpty, "\(missed.prefix(5))")
        #expect(Set(bound.map(\.generation)).count == (refresh ? 19 : 1))
    }
}
