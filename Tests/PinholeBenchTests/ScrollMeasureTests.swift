import Foundation
import Pinhole
import PinholeTestSupport
import Testing

@testable import PinholeBench

/// The scroll reproduction's wrong-row measure can fail: with a server slower than the refresh (every image of a
/// generation arrives after its row moved on to the next), ImageSlot with its generation check switched off shows
/// stale images and the measure counts them, read from their pixels; the guarded slot shows none.
@MainActor
@Suite(.timeLimit(scaledMinutes: 3))
struct ScrollMeasureTests {
    static func configuration(_ strategy: ScrollBenchmark.Strategy) -> ScrollBenchmark.Configuration {
        var configuration = ScrollReproductionTests.configuration()
        configuration.strategies = [strategy]
        configuration.latencyMs = 600
        configuration.refreshIntervalSeconds = 0.4
        return configuration
    }

    @Test func countsTheStaleImagesOfAnUnguardedSlotAndNoneOfAGuardedOne() async throws {
        // Given the scaled-down list whose server answers after 600 ms while rows refresh every 400 ms
        // When it runs with the generation check off, then on
        let unguarded = try #require(
            try await ScrollBenchmark(configuration: Self.configuration(.unguarded)).run().first)
        let guarded = try #require(try await ScrollBenchmark(configuration: Self.configuration(.pinhole)).run().first)

        // Then the unguarded slots showed images of their rows' previous refreshes, each caught by its code
        #expect(unguarded.wrongRowImages > 0, "\(unguarded.wrongRowImages) of \(unguarded.imagesShown)")
        #expect(unguarded.unreadableImages == 0)
        // And the guarded ones none, and every row on screen at the end shows its own, current image
        #expect(guarded.wrongRowImages == 0 && guarded.imagesShown > 0)
        #expect(guarded.finalRowsShowingOwnImage == guarded.finalVisibleRows)
    }
}
