import Foundation
import Pinhole
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import pinhole

/// Outputs appear whole or not at all: what lets `--skip-existing` trust a file under an output name after a
/// run was killed mid-write (the end-to-end kill test rarely lands inside a small write; this one watches a
/// large write from another thread the whole time).
@Suite(.timeLimit(scaledMinutes: 1))
struct OutputWriteAtomicityTests {
    @Test func aReaderNeverSeesAnOutputPartlyWritten() async throws {
        // Given a 48 MB payload and a thread that watches the output path's size while it is written
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let path = directory.file("out/photo.360.jpg")
        let payload = Data(repeating: 0xA5, count: 48_000_000)
        let watcher = SizeWatcher(path: path)
        watcher.start()

        // When the output is written three times over (each replaces the last)
        for _ in 0..<3 { try await WorkerThreadPool.io.run { try FileAccess.write(payload, to: path) } }
        let seen = await watcher.stop()

        // Then the watcher saw the file absent or whole, never in between, and did watch while it existed
        #expect(seen.partial.isEmpty, "partial sizes seen: \(seen.partial)")
        #expect(seen.samples > 10)
        #expect(seen.whole > 0)
    }
}

/// Samples the size of a path on a thread of its own (so sampling never waits for the cooperative pool).
private final class SizeWatcher: Sendable {
    struct Seen: Sendable {
        var samples = 0
        var whole = 0
        /// The first 10 sizes seen that were neither absent nor whole.
        var partial: [Int] = []
    }

    private let path: String
    private let state = Locked((running: true, seen: Seen()))
    private let done = Locked<CheckedContinuation<Seen, Never>?>(nil)

    init(path: String) {
        self.path = path
    }

    func start() {
        let thread = Thread { [self] in
            while state.withLock({ $0.running }) {
                var status = stat()
                let size = stat(path, &status) == 0 ? Int(status.st_size) : -1
                state.withLock { state in
                    state.seen.samples += 1
                    if size == 48_000_000 {
                        state.seen.whole += 1
                    } else if size >= 0 && state.seen.partial.count < 10 {
                        state.seen.partial.append(size)
                    }
                }
            }
            let seen = state.withLock { $0.seen }
            done.withLock {
                $0?.resume(returning: seen)
                $0 = nil
            }
        }
        thread.start()
    }

    /// Stops sampling and returns what was seen.
    func stop() async -> Seen {
        await withCheckedContinuation { continuation in
            done.withLock { $0 = continuation }
            state.withLock { $0.running = false }
        }
    }
}
