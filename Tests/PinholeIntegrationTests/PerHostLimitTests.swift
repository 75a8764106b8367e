import Foundation
import Pinhole
import PinholeCurl
import PinholeShared
import PinholeTestServer
import PinholeTestSupport
import Testing

/// One origin that stalls holds at most its share of the network slots: the others stay free for other origins.
@Suite(.timeLimit(scaledMinutes: 2))
struct PerHostLimitTests {
    @Test func downloadsStalledOnOneOriginLeaveSlotsForAnother() async throws {
        // Given 8 network slots, 6 per origin (the defaults), and an origin whose images take two minutes
        var loader = Harness.fastLoader()
        loader.stallTimeout = .seconds(120)
        loader.deadline = .seconds(300)
        let harness = try Harness(networkLimit: 8, loader: loader)
        let photo = try await Fixture.input("size-key-source.jpg")
        for index in 0..<8 { harness.server.route("/stall-\(index).jpg", .image(photo, latency: .seconds(120))) }
        let other = try PinholeTestServer()
        defer { Task { await other.shutDown() } }
        other.route("/p.jpg", .image(photo))
        // When 8 downloads from the stalling origin are under way
        let stalled = (0..<8).map { harness.pipeline.imageTask(for: harness.request("/stall-\($0).jpg", size: 64)) }
        defer { for task in stalled { task.cancel() } }
        try #require(await eventually { harness.server.stats.requestsStarted == 6 })
        #expect(
            await eventually {
                let counts = harness.pipeline.networkQueueCounts
                return counts.running == 6 && counts.waiting == 2
            })
        // Then an image from the other origin loads at once, beside them
        let loaded = Locked<Int?>(nil)
        let request = ImageRequest(url: other.url("/p.jpg"), thumbnail: ThumbnailOptions(maxPixelSize: 64))
        let good = Task {
            let response = try await harness.pipeline.image(for: request)
            loaded.withLock { $0 = response.image.width }
        }
        defer { good.cancel() }
        let width: @Sendable () -> Int? = { loaded.withLock { $0 } }
        #expect(await eventually { width() == 64 })
        // And it did not wait for them: none has ended, and the stalling origin never had more than its 6
        #expect(harness.server.stats.requestsCompleted == 0)
        #expect(harness.server.stats.requestsStarted == 6)
    }
}
