import PinholeTestSupport
import Testing

@testable import PinholeBench

@Suite(.timeLimit(scaledMinutes: 1))
struct ScrollScriptTests {
    let script = ScrollScript(rowCount: 200, visibleRowCount: 12, durationSeconds: 7.3)

    @Test(arguments: [
        (0.0, 0), (1.825, 94), (3.65, 188), (5.475, 94), (7.3, 0), (9.0, 0), (-1.0, 0),
    ])
    func movesTopToBottomToTopThenRests(seconds: Double, top: Int) {
        #expect(script.topRow(atSeconds: seconds) == top)
    }

    @Test func showsTheVisibleCountOfConsecutiveRowsAtEveryMoment() {
        for step in 0...80 {
            let rows = script.visibleRows(atSeconds: Double(step) * 0.1)
            #expect(rows.count == 12)
            #expect(rows.lowerBound >= 0 && rows.upperBound <= 200)
        }
    }

    @Test func goesDownMonotonicallyThenUp() {
        let down = stride(from: 0.0, through: 3.65, by: 0.05).map { script.topRow(atSeconds: $0) }
        let up = stride(from: 3.65, through: 7.29, by: 0.05).map { script.topRow(atSeconds: $0) }
        #expect(down == down.sorted())
        #expect(up == up.sorted(by: >))
        #expect(script.lastTopRow == 188)
    }

    @Test func aListShorterThanTheScreenNeverMoves() {
        let short = ScrollScript(rowCount: 5, visibleRowCount: 12, durationSeconds: 2)
        #expect(short.lastTopRow == 0)
        #expect(short.visibleRows(atSeconds: 1) == 0..<5)
    }

    @Test func rowsVisibleOverAnIntervalCoverEveryMomentInItAndNoMore() {
        // Given intervals on the way down, across the turn at the bottom, on the way up and into the rest
        for (start, end) in [(0.5, 0.9), (3.5, 3.8), (5.0, 5.4), (7.1, 9.0), (-1.0, 0.2)] {
            // When the rows of the whole interval are asked for
            let rows = script.visibleRows(fromSeconds: start, throughSeconds: end)
            // Then they are exactly the union of the rows visible at each millisecond in it
            let moments = stride(from: start, through: end, by: 0.001).map { script.visibleRows(atSeconds: $0) }
            let union = (moments.map(\.lowerBound).min() ?? 0)..<(moments.map(\.upperBound).max() ?? 0)
            #expect(rows == union, "\(start)…\(end)")
        }
        #expect(script.visibleRows(fromSeconds: 3.5, throughSeconds: 3.8).upperBound == 200)
        #expect(script.visibleRows(fromSeconds: 2, throughSeconds: 1).isEmpty)
    }

    @Test func endsAtTheDuration() {
        #expect(!script.hasEnded(atSeconds: 7.29))
        #expect(script.hasEnded(atSeconds: 7.3))
    }
}
