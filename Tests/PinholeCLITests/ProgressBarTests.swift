import PinholeTestSupport
import Testing

@testable import pinhole

/// The progress bar's text: rate always, ETA only when the total is known.
@Suite(.timeLimit(scaledMinutes: 1))
struct ProgressBarTests {
    @Test func showsTheRateAndAnETAWhenTheTotalIsKnown() {
        // Given 400 of 1,000 inputs done in 20 s, 100 of them skipped (300 processed: 15/s)
        let line = ProgressBar.line(finished: 400, failed: 3, skipped: 100, total: 1000, seconds: 20)
        // Then the bar is 40 % full, and the 600 left take 40 s at 15/s
        #expect(line == "[############------------------] 400/1000  15.0 images/s  ETA 0:40  3 failed  100 skipped")
    }

    @Test func showsNoETAWhenTheTotalIsUnknown() {
        let line = ProgressBar.line(finished: 420, failed: 0, skipped: 0, total: nil, seconds: 10)
        #expect(line == "420 done  42.0 images/s")
    }

    @Test func showsNoETABeforeTheFirstInputOrAfterTheLast() {
        #expect(!ProgressBar.line(finished: 0, failed: 0, skipped: 0, total: 10, seconds: 1).contains("ETA"))
        #expect(!ProgressBar.line(finished: 10, failed: 0, skipped: 0, total: 10, seconds: 1).contains("ETA"))
    }

    @Test(arguments: [(0.2, "0:01"), (47, "0:47"), (725, "12:05"), (10929, "3:02:09"), (1e12, "99:59:59")])
    func formatsDurations(seconds: Double, text: String) {
        #expect(ProgressBar.duration(seconds) == text)
    }

    @Test func rendersNothingWhenDisabled() {
        var bar = ProgressBar(isEnabled: false)
        #expect(bar.render(finished: 1, failed: 0, skipped: 0, total: 2) == nil)
        #expect(bar.erasure == nil)
    }
}
