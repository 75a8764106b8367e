import PinholeGallery
import PinholeTestSupport
import Testing

@Suite(.timeLimit(scaledMinutes: 1))
struct KeyInputTests {
    @Test(arguments: [
        ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}OA", .up), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
        ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end), ("\u{1B}OH", .home),
        ("k", .up), ("j", .down), ("f", .favourite), ("r", .retry), ("q", .quit), ("\u{03}", .quit),
        ("\u{1B}[C", .right), ("\u{1B}[D", .left), ("l", .right), ("h", .left), ("\r", .open), ("\u{7F}", .back),
        ("g", .toggleLayout), ("G", .end),
    ])
    func parsesKeysAndEscapeSequences(_ input: String, _ key: Key) {
        var parser = KeyParser()
        #expect(parser.keys(from: Array(input.utf8)) == [key])
    }

    @Test func completesASequenceSplitAcrossReads() {
        // Given an arrow sequence that arrives in two reads
        var parser = KeyParser()
        // When both parts are fed
        let first = parser.keys(from: [0x1B, UInt8(ascii: "[")])
        let second = parser.keys(from: [UInt8(ascii: "B"), UInt8(ascii: "j")])
        // Then the key comes once the sequence is complete
        #expect(first.isEmpty)
        #expect(second == [.down, .down])
    }

    @Test func skipsUnknownBytesAndSequences() {
        var parser = KeyParser()
        #expect(parser.keys(from: Array("x\u{1B}[99~\u{1B}[Zkq".utf8)) == [.up, .quit])
    }

    @Test func loneEscapeIsEscOnlyOnceNothingFollows() {
        // Given an ESC byte alone in a read
        var parser = KeyParser()
        #expect(parser.keys(from: [0x1B]).isEmpty)
        #expect(parser.hasPending)
        // When no more input comes, the reader flushes: it is the Esc key
        #expect(parser.flush() == [.back])
        #expect(!parser.hasPending)
        // And ESC followed by an arrow's bytes in the next read is the arrow
        #expect(parser.keys(from: [0x1B]).isEmpty)
        #expect(parser.keys(from: Array("[D".utf8)) == [.left])
        // And ESC followed by another key is Esc, then that key
        #expect(parser.keys(from: Array("\u{1B}j".utf8)) == [.back, .down])
    }

    @Test func lateTerminalRepliesAreNotTakenForKeys() {
        // Given the replies of a terminal query that arrive after the query gave up
        var parser = KeyParser()
        let late = "\u{1B}_Gi=31;OK\u{1B}\\" + "\u{1B}[6;17;8t" + "\u{1B}[?63;1;2;4c" + "\u{1B}P1$r0m\u{1B}\\"
        // Then they produce no key, and a key after them still does
        #expect(parser.keys(from: Array((late + "j").utf8)) == [.down])
    }

    @Test func parsesAScript() throws {
        let script = try KeyScript.parse("wait:2000, down:40,up:40,ready,f,g,enter,right:2,esc,quit")
        #expect(
            script.steps == [
                .wait(milliseconds: 2000), .key(.down, count: 40), .key(.up, count: 40),
                .ready(timeoutMilliseconds: 30_000), .key(.favourite, count: 1), .key(.toggleLayout, count: 1),
                .key(.open, count: 1), .key(.right, count: 2), .key(.back, count: 1), .key(.quit, count: 1),
            ])
    }

    @Test func keysCanBePressedAtAnInterval() throws {
        // Given a script that pages down three times, 300 ms apart
        var player = KeyScriptPlayer(try KeyScript.parse("pgdn:3/300,q"))
        #expect(try KeyScript.parse("pgdn:3/300").steps == [.key(.pageDown, count: 3, intervalMilliseconds: 300)])
        let start = ContinuousClock.now
        // When frames pass
        // Then the presses are 300 ms apart, and the next step follows the last press at once
        #expect(player.next(now: start, isSettled: false) == .pageDown)
        #expect(player.next(now: start + .milliseconds(299), isSettled: false) == nil)
        #expect(player.next(now: start + .milliseconds(300), isSettled: false) == .pageDown)
        #expect(player.next(now: start + .milliseconds(600), isSettled: false) == .pageDown)
        #expect(player.next(now: start + .milliseconds(601), isSettled: false) == .quit)
    }

    @Test(arguments: ["jump", "down:x", "wait", "up:-1", "wait:5/10", "up:2/x"])
    func rejectsABadScript(_ text: String) {
        #expect(throws: KeyScript.ParseError.self) { try KeyScript.parse(text) }
    }

    @Test func playerPressesOneKeyPerCallAndHonoursWaits() throws {
        // Given a script with a wait between keys
        var player = KeyScriptPlayer(try KeyScript.parse("down:2,wait:100,up,ready,quit"))
        let start = ContinuousClock.now
        // When the player is asked frame by frame
        #expect(player.next(now: start, isSettled: false) == .down)
        #expect(player.next(now: start, isSettled: false) == .down)
        #expect(player.next(now: start, isSettled: false) == nil)
        #expect(player.next(now: start + .milliseconds(50), isSettled: false) == nil)
        // Then keys resume after the wait, and `ready` holds until the screen is settled
        #expect(player.next(now: start + .milliseconds(100), isSettled: false) == .up)
        #expect(player.next(now: start + .milliseconds(120), isSettled: false) == nil)
        #expect(player.next(now: start + .milliseconds(140), isSettled: true) == .quit)
        #expect(player.isFinished)
    }

    @Test func differWritesEverythingFirstThenOnlyChangedLines() {
        // Given a differ that drew a three-line frame
        var differ = FrameDiffer()
        let first = differ.diff(["aaa", "bbb", "ccc"])
        #expect(first.hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
        #expect(differ.changedLineCount == 3)
        // When only the middle line changes
        let second = differ.diff(["aaa", "BBB", "ccc"])
        // Then only that line is written, at its row
        #expect(second == "\u{1B}[2;1HBBB")
        #expect(differ.changedLineCount == 1)
        #expect(differ.diff(["aaa", "BBB", "ccc"]).isEmpty)
        // And a size change redraws everything
        #expect(differ.diff(["aaa", "BBB"]).hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
    }

    @Test func frameStatsCountHitchesAndHangs() {
        var stats = FrameStats()
        for value in [1.0, 2, 3, 4, 20, 300] { stats.record(milliseconds: value) }
        #expect(stats.hitches == 2)
        #expect(stats.hangs == 1)
        #expect(stats.percentile(0.5) == 3)
        #expect(stats.percentile(0.99) == 300)
    }
}
