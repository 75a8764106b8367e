import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

@Suite(.timeLimit(scaledMinutes: 1))
struct ImagePipelinePriorityTests {
    /// Starts a blocker that holds the single network slot, then `names` in order at `priorities`; requires
    /// each to have reached its place. (The tests end with `fixture.loader.close()`, which ends every load
    /// still waiting or queued, so no task outlives its test.)
    private func queued(
        _ fixture: PipelineFixture,
        _ items: [(String, ImageRequest.Priority)]
    ) async throws -> [ImageTask] {
        let blocker = PipelineFixture.url("blocker.jpg")
        _ = fixture.pipeline.imageTask(for: ImageRequest(url: blocker, maxPixelSize: 10))
        try #require(await eventually { fixture.loader.waitingURLs == [blocker] })
        var tasks: [ImageTask] = []
        for (index, (name, priority)) in items.enumerated() {
            let request = ImageRequest(url: PipelineFixture.url(name), maxPixelSize: 10, priority: priority)
            tasks.append(fixture.pipeline.imageTask(for: request))
            try #require(await eventually { fixture.pipeline.networkQueueCounts.waiting == index + 1 })
        }
        return tasks
    }

    /// Releases loads one at a time and returns the order in which they reached the loader.
    private func drain(_ fixture: PipelineFixture, count: Int) async throws -> [String] {
        for _ in 0..<count {
            let before = fixture.loader.calls.count
            let queued = fixture.pipeline.networkQueueCounts.waiting
            // (a load is counted in `calls` a moment before it waits at the gate: wait for it to wait)
            try #require(await eventually { !fixture.loader.waitingURLs.isEmpty })
            let next = try #require(fixture.loader.waitingURLs.first)
            fixture.loader.release(next)
            // A queued waiter now gets the slot: wait until its load has reached the loader.
            if queued > 0 { try #require(await eventually { fixture.loader.calls.count > before }) }
        }
        return fixture.loader.calls.map(\.lastPathComponent)
    }

    @Test func withANetworkLimitOfOneQueuedWorkStartsInPriorityOrder() async throws {
        // Given a network limit of 1, busy, and three waiting requests of different priorities
        let fixture = PipelineFixture(networkLimit: 1)
        defer { fixture.loader.close() }
        _ = try await queued(fixture, [("low.jpg", .low), ("normal.jpg", .normal), ("high.jpg", .high)])
        // When the slot frees repeatedly
        let order = try await drain(fixture, count: 4)
        // Then the highest priority goes first
        #expect(order == ["blocker.jpg", "high.jpg", "normal.jpg", "low.jpg"])
    }

    @Test func raisingATasksPriorityJumpsTheQueue() async throws {
        // Given three waiting requests at low priority
        let fixture = PipelineFixture(networkLimit: 1)
        defer { fixture.loader.close() }
        let tasks = try await queued(fixture, [("a.jpg", .low), ("b.jpg", .low), ("c.jpg", .low)])
        // When the last one is raised
        tasks[2].priority = .veryHigh
        // Then it is loaded next
        let order = try await drain(fixture, count: 4)
        #expect(order == ["blocker.jpg", "c.jpg", "a.jpg", "b.jpg"])
    }

    @Test func loweringATasksPriorityLetsOthersGoFirst() async throws {
        let fixture = PipelineFixture(networkLimit: 1)
        defer { fixture.loader.close() }
        let tasks = try await queued(fixture, [("a.jpg", .normal), ("b.jpg", .normal)])
        tasks[0].priority = .veryLow
        let order = try await drain(fixture, count: 3)
        #expect(order == ["blocker.jpg", "b.jpg", "a.jpg"])
    }

    @Test func aJoiningHighPriorityCallerRaisesTheSharedJob() async throws {
        // Given a low-priority request waiting behind a normal one
        let fixture = PipelineFixture(networkLimit: 1)
        defer { fixture.loader.close() }
        _ = try await queued(fixture, [("shared.jpg", .low), ("other.jpg", .normal)])
        // When a high-priority caller joins the low one
        _ = fixture.pipeline.imageTask(
            for: ImageRequest(url: PipelineFixture.url("shared.jpg"), maxPixelSize: 10, priority: .high))
        try #require(await eventually { fixture.pipeline.metrics.coalescedJoins == 1 })
        // Then the shared job goes before the normal one
        let order = try await drain(fixture, count: 3)
        #expect(order == ["blocker.jpg", "shared.jpg", "other.jpg"])
    }

    @Test func prefetchRunsAtLowPriorityAndStopCancelsIt() async throws {
        // Given a busy network slot and a visible request waiting
        let fixture = PipelineFixture(networkLimit: 1)
        defer { fixture.loader.close() }
        _ = try await queued(fixture, [("visible.jpg", .normal)])
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline)
        let upcoming = ["next-1.jpg", "next-2.jpg"].map { ImageRequest(url: PipelineFixture.url($0), maxPixelSize: 10) }
        // When prefetching starts, then stops for one of them
        prefetcher.startPrefetching(with: upcoming)
        try #require(await eventually { fixture.pipeline.networkQueueCounts.waiting == 3 })
        prefetcher.stopPrefetching(with: [upcoming[1]])
        try #require(await eventually { fixture.pipeline.networkQueueCounts.waiting == 2 })
        // Then the visible request goes first, the remaining prefetch next, the stopped one never
        let order = try await drain(fixture, count: 3)
        #expect(order == ["blocker.jpg", "visible.jpg", "next-1.jpg"])
        #expect(await eventually { prefetcher.activeCount == 0 })
    }
}
