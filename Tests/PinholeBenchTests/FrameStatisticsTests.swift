import PinholeTestSupport
import Testing

@testable import PinholeBench

@Suite(.timeLimit(scaledMinutes: 1))
struct FrameStatisticsTests {
    static let period = 1.0 / 60

    @Test(arguments: [(50.0, 50.0), (99.0, 99.0), (100.0, 100.0), (1.0, 1.0), (0.5, 1.0)])
    func percentilesUseTheNearestRank(p: Double, expected: Double) {
        let values = (1...100).map(Double.init).shuffled()
        #expect(FrameStatistics.percentile(p, of: values) == expected)
    }

    @Test func percentilesOfFewValues() {
        #expect(FrameStatistics.percentile(50, of: [4, 1, 3, 2]) == 2)
        #expect(FrameStatistics.percentile(99, of: [4, 1, 3, 2]) == 4)
        #expect(FrameStatistics.percentile(50, of: []) == 0)
    }

    @Test func countsStrictlyAboveTheThreshold() {
        #expect(FrameStatistics.count([16.7, 16.71, 33.3, 250, 251], over: 16.7) == 4)
        #expect(FrameStatistics.count([16.7, 16.71, 33.3, 250, 251], over: 250) == 1)
    }

    @Test func ticksOnTheGridHaveNoHitches() {
        // Given 61 ticks one period apart, each up to 0.9 ms late (timer jitter)
        let ticks = (0...60).map { Double($0) * Self.period + Double($0 % 10) * 0.0001 }
        let statistics = FrameStatistics(tickSeconds: ticks)
        // Then every presented frame is one period and nothing hitches, though raw intervals vary
        #expect(statistics.presentedIntervalsMs.count == 60)
        #expect(statistics.hitches == 0 && statistics.hangs == 0)
        #expect(abs(statistics.p99Ms - 1000.0 / 60) < 1e-9)
        #expect(statistics.rawP99Ms > 1000.0 / 60)
    }

    @Test func aStallOfTwentyMillisecondsMissesOneVsync() {
        // Given ticks at 0, T, 2T, then one 20 ms late, then back on the grid
        let t = Self.period
        let statistics = FrameStatistics(tickSeconds: [0, t, 2 * t, 3 * t + 0.020, 5 * t, 6 * t])
        // Then one frame took two periods (a hitch) and the late tick's slot was not counted twice
        #expect(statistics.presentedIntervalsMs.map { ($0 / (1000 * t)).rounded() } == [1, 1, 2, 1, 1])
        #expect(statistics.hitches == 1)
        #expect(statistics.hangs == 0)
    }

    @Test func aStallOfThreeHundredMillisecondsIsAHang() {
        let t = Self.period
        let statistics = FrameStatistics(tickSeconds: [0, t, t + 0.300, 2 * t + 0.300])
        #expect(statistics.hangs == 1)
        #expect(statistics.hitches == 1)
        #expect(statistics.maxMs > 299 && statistics.maxMs < 301)
    }
}
