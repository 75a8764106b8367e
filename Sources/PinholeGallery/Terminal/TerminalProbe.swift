import Glibc
import Pinhole

/// Asks the terminal what it can draw and how large its cells are (see ``TerminalReplies`` for the questions),
/// with a timeout, before the keyboard reader starts.
///
/// Needs standard input in raw mode (``TerminalSession/enter(rawInput:alternateScreen:)``) so the replies are not
/// echoed or line-buffered. Blocking (`poll` + `read`): ``query(timeout:)`` runs it on ``WorkerThreadPool/io``.
enum TerminalProbe {
    /// The questions, in the order the replies are expected; the Device Attributes request comes last.
    static let questions = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\" + "\u{1B}[16t" + "\u{1B}[14t" + "\u{1B}[c"

    /// Writes the questions to standard output and collects the replies from standard input until the Device
    /// Attributes reply arrives or `timeout` passes (a terminal that answers nothing costs the whole timeout).
    static func query(timeout: Duration = .milliseconds(1000)) async -> TerminalReplies {
        (try? await WorkerThreadPool.io.run { queryNow(timeout: timeout) }) ?? TerminalReplies()
    }

    private static func queryNow(timeout: Duration) -> TerminalReplies {
        TerminalSession.write(questions)
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        var replies = TerminalReplies()
        while !replies.isComplete {
            let remaining = deadline - clock.now
            guard remaining > .zero else { break }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            replies = TerminalReplies(parsing: bytes)
        }
        return replies
    }
}
