import Foundation
import PinholeTestSupport
import Testing

@testable import PinholeBench

@MainActor
@Suite(.timeLimit(scaledMinutes: 1))
struct ScrollLedgerTests {
    let a = URL(string: "http://127.0.0.1:1/img/1?v=0")!
    let b = URL(string: "http://127.0.0.1:1/img/1?v=1")!

    @Test func anImageForTheCellsOldURLIsAWrongRowImage() {
        // Given a cell bound to A, then rebound to B (a refresh)
        let ledger = ScrollLedger(cellCount: 1) { 0 }
        ledger.bind(0, to: a)
        ledger.bind(0, to: b)
        // When A's image arrives, then B's
        let first = ledger.applied(0, imageURL: a)
        let second = ledger.applied(0, imageURL: b)
        // Then only A's counts as wrong, and A left early (never shown in its row)
        #expect(!first && second)
        #expect(ledger.imagesShown == 2 && ledger.wrongRowImages == 1)
        #expect(ledger.leftEarlyURLs == [a])
        #expect(ledger.distinctURLs == [a, b])
    }

    @Test func pixelsOfAnotherRowAreWrongEvenForTheRightURL() {
        let ledger = ScrollLedger(cellCount: 1) { 0 }
        ledger.bind(0, to: a)
        #expect(!ledger.applied(0, imageURL: a, pixelsMatch: false))
        #expect(ledger.wrongRowImages == 1)
    }

    @Test func aURLShownLaterInItsRowDidNotLeaveEarly() {
        // Given a row that scrolled off before its image came, then back on, and was shown
        let ledger = ScrollLedger(cellCount: 2) { 1.5 }
        ledger.bind(0, to: a)
        ledger.unbind(0)
        ledger.bind(1, to: a)
        ledger.applied(1, imageURL: a)
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
