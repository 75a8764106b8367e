import Pinhole
import PinholeTestSupport
import Synchronization
import Testing

/// What a ``WorkerThreadPool`` keeps alive after a closure has run: nothing (found under LeakSanitizer, where
/// finished work items, and the image data their closures captured, stayed in the queue's spent slots).
@Suite(.timeLimit(scaledMinutes: 1))
struct WorkerThreadPoolRetentionTests {
    /// Counts the ``Payload``s released.
    final class Releases: Sendable {
        let count = Atomic<Int>(0)
    }

    /// Stands for what a closure captures (input bytes, an image); reports its own release.
    final class Payload: Sendable {
        let releases: Releases
        let bytes: Int

        init(_ releases: Releases, bytes: Int) {
            self.releases = releases
            self.bytes = bytes
        }

        deinit { releases.count.add(1, ordering: .releasing) }
    }

    /// Runs one closure that captures a fresh payload; the payload is referenced nowhere else.
    private static func runCapturing(_ index: Int, on pool: WorkerThreadPool, releases: Releases) async throws -> Int {
        let payload = Payload(releases, bytes: index)
        return try await pool.run { payload.bytes }
    }

    @Test(arguments: [1, 3, 10])
    func releasesWhatFinishedClosuresCaptured(closures: Int) async throws {
        // Given a pool of its own (so no other test's items compact its queue)
        let pool = WorkerThreadPool(threadCount: 1, name: "pinhole-retain")
        let releases = Releases()

        // When closures capturing payloads have run and returned their results
        var results: [Int] = []
        for index in 0..<closures {
            results.append(try await Self.runCapturing(index, on: pool, releases: releases))
        }

        // Then every payload is released (the worker drops its last reference right after resuming us, so wait
        // for it with a generous bound; before the fix they stayed until 64 more items had passed)
        _ = await eventually(timeout: .seconds(20)) { releases.count.load(ordering: .acquiring) >= closures }
        #expect(results == Array(0..<closures))
        #expect(releases.count.load(ordering: .acquiring) == closures)
    }
}
