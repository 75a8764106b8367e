import Foundation
import Pinhole
import PinholeCurl
import PinholeTestServer
import PinholeTestSupport
import Testing

/// The pipeline's coordination against a real server: what reaches the network, what is aborted, in which order.
@Suite(.timeLimit(scaledMinutes: 2))
struct PipelineNetworkTests {
    @Test func fortyConcurrentRequestsForFourURLsReachTheServerFourTimes() async throws {
        // Given four images behind a 100 ms server
        let harness = try Harness()
        let image = try await Fixture.input("size-key-source.jpg")
        for index in 0..<4 { harness.server.route("/p\(index).jpg", .image(image, latency: .milliseconds(100))) }
        // When 40 callers ask at once
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<40 {
                let request = harness.request("/p\(index % 4).jpg", size: 100)
                group.addTask {
                    let response = try await harness.pipeline.image(for: request)
                    return (response.image.width, response.image.height)
                }
            }
            for try await size in group { #expect(size == (100, 75)) }
        }
        // Then exactly four requests reached the server
        #expect(harness.server.stats.requestsStarted == 4)
        #expect(harness.pipeline.metrics.coalescedJoins == 36)
    }

    @Test func allCallersCancelledAbortsTheRequestAtTheServer() async throws {
        // Given an image that takes a minute, with two waiting callers (no loader timeout may end the download
        // first, however long a loaded machine takes to cancel)
        var loader = Harness.fastLoader()
        loader.stallTimeout = .seconds(120)
        loader.deadline = .seconds(300)
        let harness = try Harness(loader: loader)
        harness.server.route("/slow.jpg", .image(try await Fixture.input("size-key-source.jpg"), latency: .seconds(60)))
        let request = harness.request("/slow.jpg")
        let first = Task { try await harness.pipeline.image(for: request) }
        let second = Task { try await harness.pipeline.image(for: request) }
        defer {
            first.cancel()
            second.cancel()
        }
        try #require(await eventually { harness.server.stats.requestsStarted == 1 })
        // When both are cancelled
        first.cancel()
        second.cancel()
        await #expect(throws: CancellationError.self) { try await first.cancellableValue }
        await #expect(throws: CancellationError.self) { try await second.cancellableValue }
        // Then the server sees the client go away and nothing completes
        #expect(await eventually { harness.server.stats.requestsAborted == 1 })
        #expect(harness.server.stats.requestsCompleted == 0)
        #expect(await eventually { harness.pipeline.metrics.downloadsCancelled == 1 })  // recorded by the job task
        #expect(harness.pipeline.metrics.downloadsFailed == 0)
    }

    @Test func oneOfTwoCallersCancelledTheOtherGetsItsImage() async throws {
        // (No loader timeout may end the download: the test counts aborts, and the harness's 1 s stall timeout
        // once aborted it under load in a fresh-clone `make test`, 82 s in.)
        var loader = Harness.fastLoader()
        loader.stallTimeout = .seconds(120)
        loader.deadline = .seconds(300)
        let harness = try Harness(loader: loader)
        harness.server.route(
            "/kept.jpg", .image(try await Fixture.input("size-key-source.jpg"), latency: .milliseconds(300)))
        let request = harness.request("/kept.jpg", size: 200)
        let leaving = Task { try await harness.pipeline.image(for: request) }
        let staying = Task { try await harness.pipeline.image(for: request) }
        defer {
            leaving.cancel()
            staying.cancel()
        }
        try #require(await eventually { harness.server.stats.requestsStarted == 1 })
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.cancellableValue }
        let response = try await staying.cancellableValue
        #expect((response.image.width, response.image.height) == (200, 150))
        #expect(harness.server.stats.requestsAborted == 0)
    }

    @Test func withANetworkLimitOfOneRequestsReachTheServerInPriorityOrder() async throws {
        // Given a network limit of 1 held by a request that never gets an answer, and four queued requests
        // (no stall timeout or deadline: the blocker must hold the slot however slow the machine is)
        var loader = Harness.fastLoader()
        loader.stallTimeout = .seconds(600)
        loader.deadline = .seconds(600)
        let harness = try Harness(networkLimit: 1, loader: loader)
        let image = try await Fixture.input("orient-1.jpg")
        harness.server.route("/blocker.jpg", Route(behavior: .neverRespond))
        for name in ["low", "normal", "high", "raised"] { harness.server.route("/\(name).jpg", .image(image)) }
        let blocker = harness.pipeline.imageTask(for: harness.request("/blocker.jpg"))
        defer { blocker.cancel() }
        try #require(await eventually { harness.server.stats.requestsStarted == 1 })
        let tasks = [("low", ImageRequest.Priority.low), ("normal", .normal), ("high", .high), ("raised", .veryLow)].map
        {
            harness.pipeline.imageTask(for: harness.request("/\($0.0).jpg", priority: $0.1))
        }
        defer { for task in tasks { task.cancel() } }
        try #require(await eventually { harness.pipeline.networkQueueCounts.waiting == 4 })
        // When the last one is raised above all
        tasks[3].priority = .veryHigh
        // When the blocker goes away and frees the slot
        blocker.cancel()
        // (`ImageTask.response` does not follow the waiter's cancellation: a time limit cancels the tasks here)
        try await withTaskCancellationHandler {
            for task in tasks { _ = try await task.response }
        } onCancel: {
            for task in tasks { task.cancel() }
        }
        // Then the server saw them in priority order
        #expect(
            harness.server.requestLog.map(\.path) == [
                "/blocker.jpg", "/raised.jpg", "/high.jpg", "/normal.jpg", "/low.jpg",
            ])
    }

    @Test func fileURLsLoadThroughTheSamePipeline() async throws {
        let harness = try Harness()
        let url = Fixture.cases.appendingPathComponent("inputs/orient-6.jpg")
        let response = try await harness.pipeline.image(for: ImageRequest(url: url, maxPixelSize: 60))
        #expect(response.source == .file)
        #expect((response.image.width, response.image.height) == (60, 40))
        let missing = await #expect(throws: PinholeError.self) {
            try await harness.pipeline.image(for: ImageRequest(url: URL(fileURLWithPath: "/nonexistent/x.jpg")))
        }
        #expect(missing?.code == .fileNotFound)
    }

    @Test func unsupportedSchemeIsAnInvalidRequest() async throws {
        let harness = try Harness()
        let error = await #expect(throws: PinholeError.self) {
            try await harness.pipeline.image(for: ImageRequest(url: URL(string: "ftp://example.com/a.jpg")!))
        }
        #expect(error?.code == .invalidRequest)
    }
}
