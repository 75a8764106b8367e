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

    @Test func endsAtTheDuration() {
        #expect(!script.hasEnded(atSeconds: 7.29))
        #expect(script.hasEnded(atSeconds: 7.3))
    }
}
