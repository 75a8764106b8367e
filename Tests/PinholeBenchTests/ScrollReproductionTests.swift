import Foundation
import Pinhole
import PinholeTestServer
import PinholeTestSupport
import Testing

@testable import PinholeBench

/// The scroll reproduction scaled down (30 rows, 50 ms latency, refresh every 400 ms, a 2 s flick) with the
/// Pinhole strategy against the real server and pipeline, ImageSlots on the main actor. Only invariants that do
/// not depend on speed are asserted: on a loaded machine the run is slower, never different.
///
/// No naive-strategy test: its blocking downloads clog libdispatch's global pool, and in a shared test process
/// every other test's tasks would wait for threads for minutes (a 10 s naive run delayed this process's own
/// task resumption by ~33 s in `pinhole bench scroll`).
@MainActor
@Suite(.timeLimit(scaledMinutes: 3))
struct ScrollReproductionTests {
    static var corpus: String? {
        let environment = ProcessInfo.processInfo.environment
        if let corpus = environment["PINHOLE_CORPUS"], !corpus.isEmpty { return corpus }
        return NSHomeDirectory() + "/.cache/pinhole/corpus"
    }

    static func configuration() -> ScrollBenchmark.Configuration {
        var configuration = ScrollBenchmark.Configuration()
        configuration.strategies = [.pinhole]
        configuration.rows = 30
        configuration.latencyMs = 50
        configuration.refresh = true
        configuration.durationSeconds = 2
        configuration.settleCapSeconds = 120
        configuration.imageCount = 8
        configuration.corpus = corpus
        return configuration
    }

    @Test func pinholeRowsNeverShowAnotherRowsImageAndEveryRowThatLeftWasCancelledOrServed() async throws {
        // Given the scaled-down list against the real server and pipeline
        let benchmark = ScrollBenchmark(configuration: Self.configuration())

        // When it flicks top → bottom → top with refreshes and settles
        let results = try await benchmark.run()
        let result = try #require(results.first)

        // Then the frame loop ran on the main queue, and it settled
        #expect(result.frames > 10)
        #expect(!result.timedOut)
        // No image was ever applied to a row that showed another URL (or other pixels)
        #expect(result.wrongRowImages == 0)
        #expect(result.imagesShown > 0)
        // Downloads never exceed the distinct URLs asked for (coalescing, no repeats), except a URL asked for again
        // after its first download was cancelled (a row that came back: on a loaded machine 50 ms can be too short)
        #expect(result.duplicateDownloads == 0)
        #expect(result.requestsStarted <= result.distinctURLs + result.downloadsRestartedAfterCancel)
        // Every request the server started ended: answered in full or closed by the client
        #expect(result.requestsStarted == result.requestsCompleted + result.requestsCancelled)
        // Every URL whose rows left before its image came was cancelled or completed, none left hanging
        #expect(result.leftEarlyUnfinished == 0)
        #expect(result.leftEarlyCancelled + result.leftEarlyCompleted == result.leftEarly)
        // The rows on screen at the end all show their own, current image
        #expect(result.finalVisibleRows == 12)
        #expect(result.finalRowsShowingOwnImage == result.finalVisibleRows)
    }
}
