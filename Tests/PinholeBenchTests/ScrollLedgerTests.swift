import Foundation
import PinholeTestSupport
import Testing

@testable import PinholeBench

@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct ScrollLedgerTests {
    let a = URL(string: "http://127.0.0.1:1/img/1?v=0")!
    let b = URL(string: "http://127.0.0.1:1/img/1?v=1")!

    @Test func anImageOfTheCellsPreviousRefreshIsAWrongRowImage() {
        // Given a cell bound to row 1's URL, then rebound to its refreshed URL
        let ledger = ScrollLedger(cellCount: 1) { 0 }
        ledger.bind(0, to: a)
        ledger.bind(0, to: b)
        // When an image coded for the first URL is shown, then one coded for the refreshed URL
        let first = ledger.shown(0, code: ScrollImageCode(row: 1, generation: 0))
        let second = ledger.shown(0, code: ScrollImageCode(row: 1, generation: 1))
        // Then only the first counts as wrong, and the first URL left early (never shown in its row)
        #expect(!first && second)
        #expect(ledger.imagesShown == 2 && ledger.wrongRowImages == 1)
        #expect(ledger.leftEarlyURLs == [a])
        #expect(ledger.distinctURLs == [a, b])
    }

    @Test func anImageOfARowImageCountRowsAwayIsWrong() {
        // Given a cell showing row 25 (with 24 photos, row 1 shows the same photo)
        let ledger = ScrollLedger(cellCount: 1) { 0 }
        ledger.bind(0, to: URL(string: "http://127.0.0.1:1/img/25?v=0")!)
        // When row 1's image is shown there, Then its code tells it apart
        #expect(!ledger.shown(0, code: ScrollImageCode(row: 1, generation: 0)))
        #expect(ledger.wrongRowImages == 1)
    }

    @Test func anUnreadableImageIsWrongAndCountedApart() {
        let ledger = ScrollLedger(cellCount: 1) { 0 }
        ledger.bind(0, to: a)
        #expect(!ledger.shown(0, code: nil))
        #expect(ledger.wrongRowImages == 1 && ledger.unreadableImages == 1)
    }

    @Test func aURLShownLaterInItsRowDidNotLeaveEarly() {
        // Given a row that scrolled off before its image came, then back on, and was shown
        let ledger = ScrollLedger(cellCount: 2) { 1.5 }
        ledger.bind(0, to: a)
        ledger.unbind(0)
        ledger.bind(1, to: a)
        ledger.shown(1, code: ScrollImageCode(row: 1, generation: 0))
        // Then it is not counted as left early, and the arrival time is recorded
        #expect(ledger.leftEarlyURLs.isEmpty)
        #expect(ledger.lastArrivalSeconds == 1.5)
    }
}

@Suite(.timeLimit(scaledMinutes: 1))
struct DownloadLogTests {
    @Test func countsDuplicatesAndRestartsAfterCancel() {
        // Given downloads of one URL: started, started again while running, cancelled, started again
        let log = DownloadLog()
        log.started("a")
        log.started("a")
        log.finished("a", .cancelled)
        log.started("a")
        log.finished("a", .completed)
        // Then one duplicate and one restart are counted, and the last outcome is kept
        #expect(log.duplicates == 1)
        #expect(log.restartsAfterCancel == 1)
        #expect(log.outcome(of: "a") == .completed)
        #expect(log.outcome(of: "b") == nil)
    }
}
