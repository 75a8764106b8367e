import Dispatch
import Foundation
import Glibc

/// Reads standard input on a thread of its own (a blocking `read`, never on Swift's cooperative pool), parses
/// keys with ``KeyParser`` and hands them to the main actor.
///
/// A lone `ESC` is the Esc key when nothing follows it within ``escapeDelayMilliseconds`` (an arrow key's
/// `ESC [ A` arrives in one read, or a few milliseconds apart over a slow link).
/// The thread ends at end of input; it is not stopped otherwise (the process exits around it).
enum KeyboardReader {
    /// How long a lone `ESC` waits for the rest of a sequence: 50 ms.
    static let escapeDelayMilliseconds: Int32 = 50

    /// Starts the reader thread; `handler` runs on the main actor with the keys of each read.
    static func start(_ handler: @escaping @MainActor @Sendable ([Key]) -> Void) {
        let thread = Thread {
            var parser = KeyParser()
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                if parser.hasPending {
                    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                    if poll(&descriptor, 1, escapeDelayMilliseconds) == 0 {
                        let keys = parser.flush()
                        if !keys.isEmpty { DispatchQueue.main.async { MainActor.assumeIsolated { handler(keys) } } }
                        continue
                    }
                }
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                let keys = parser.keys(from: buffer[0..<count])
                guard !keys.isEmpty else { continue }
                DispatchQueue.main.async { MainActor.assumeIsolated { handler(keys) } }
            }
        }
        thread.name = "pinhole-keys"
        thread.start()
    }
}
