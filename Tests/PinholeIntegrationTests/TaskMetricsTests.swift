import Foundation
import Pinhole
import PinholeCurl
import PinholeTestServer
import PinholeTestSupport
import Testing

/// Per-request metrics (``ImageTaskMetrics``) from a real loopback transfer (libcurl) and a real decode (libvips).
@Suite(.timeLimit(scaledMinutes: 2))
struct TaskMetricsTests {
    /// A JPEG served after 20 ms, 16 KiB every 2 ms: every phase of the transfer takes time.
    private static func slowRoute(_ image: Data) -> Route {
        Route(
            headers: ["content-type": "image/jpeg"], body: image, latency: .milliseconds(20),
            behavior: .trickle(bytes: 16_384, every: .milliseconds(2)))
    }

    @Test func aDownloadRecordsTheTransferPhasesItsBytesAndTheDecode() async throws {
        // Given a pipeline that collects task metrics, and an image behind a redirect on a loopback server
        let harness = try Harness(collectsTaskMetrics: true)
        let image = try await Fixture.input("size-key-source.jpg")
        harness.server.route("/a.jpg", Self.slowRoute(image))
        harness.server.route("/to-a.jpg", .redirect(to: "/a.jpg"))
        // When it is loaded
        let response = try await harness.pipeline.image(for: harness.request("/to-a.jpg", size: 100))
        // Then the record says network, with libcurl's phases, the body's bytes, the redirect and the decode
        let metrics = try #require(response.metrics)
        #expect(metrics.source == .network)
        #expect(!metrics.joinedExistingJob)
        let transfer = try #require(metrics.transfer)
        #expect(transfer.bytesReceived == image.count)
        #expect(transfer.redirectCount == 1)
        #expect((transfer.bytesSent ?? 0) > 0)
        #expect((transfer.headerBytesReceived ?? 0) > 0)
        #expect(transfer.secureConnect == nil)  // plain http: no TLS
        for stage in [ImageTaskMetrics.Stage.connect, .firstByte, .download, .load, .decode] {
            #expect((metrics[stage] ?? .zero) > .zero, "\(stage)")
        }
        #expect(metrics[.networkQueueWait] != nil)
        #expect(metrics[.decodeQueueWait] != nil)
        #expect(metrics[.memoryCacheLookup] != nil)
        #expect(metrics[.process] == nil)  // no processors
        #expect(metrics.total >= metrics[.decode] ?? .zero)
    }

    @Test func aMemoryHitRecordsTheLookupAndNoNetworkOrDecodeSynchronousOrNot() async throws {
        // Given an image loaded once through a pipeline that collects task metrics
        let harness = try Harness(collectsTaskMetrics: true)
        harness.server.route("/b.jpg", .image(try await Fixture.input("size-key-source.jpg")))
        let request = harness.request("/b.jpg", size: 100)
        _ = try await harness.pipeline.image(for: request)
        // When it is asked again
        let response = try await harness.pipeline.image(for: request)
        // Then the record says memory, with the lookup and nothing else
        let metrics = try #require(response.metrics)
        #expect(metrics.source == .memoryCache)
        #expect(metrics.transfer == nil)
        #expect(metrics.orderedStages.map(\.stage) == [.memoryCacheLookup])
        #expect(!metrics.joinedExistingJob)
        // And so does the synchronous lookup's
        let synchronous = try #require(harness.pipeline.cachedImage(for: request)?.metrics)
        #expect(synchronous.source == .memoryCache && synchronous.transfer == nil)
        #expect(synchronous.orderedStages.map(\.stage) == [.memoryCacheLookup])
    }

    @Test func aDiskHitAfterARestartRecordsTheDiskLookupAndNoTransfer() async throws {
        // Given an image stored in the disk cache by one pipeline
        let first = try Harness(diskCache: true, collectsTaskMetrics: true)
        first.server.route(
            "/c.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "max-age=3600"],
                body: try await Fixture.input("size-key-source.jpg")))
        _ = try await first.pipeline.image(for: first.request("/c.jpg", size: 100))
        // When a new pipeline on the same directory loads it
        let second = try first.restarted()
        let response = try await second.pipeline.image(for: second.request("/c.jpg", size: 100))
        // Then the record says the data disk cache, with the lookup and a decode, and nothing transferred
        let metrics = try #require(response.metrics)
        #expect(metrics.source == .dataDiskCache)
        #expect(metrics[.dataDiskLookup] != nil)
        #expect((metrics[.decode] ?? .zero) > .zero)
        #expect(metrics.transfer == nil)
        #expect(metrics[.connect] == nil && metrics[.networkQueueWait] == nil)
        #expect(first.server.stats.requestsStarted == 1)
    }

    @Test func onlyTheCallerThatJoinedARunningJobIsMarkedJoined() async throws {
        // Given a task loading an image the server holds for 600 ms (time for both joiners on a loaded machine, under
        // the harness's stall timeout of 1 s × the load factor)
        let harness = try Harness(collectsTaskMetrics: true)
        harness.server.route(
            "/d.jpg", .image(try await Fixture.input("size-key-source.jpg"), latency: .milliseconds(600)))
        let request = harness.request("/d.jpg", size: 100)
        let starter = harness.pipeline.imageTask(for: request)
        defer { starter.cancel() }
        try #require(await eventually { harness.server.stats.requestsStarted == 1 })
        // When a second task for the same request joins it (when made), and a call too (when it reaches the job)
        let joiner = harness.pipeline.imageTask(for: request)
        defer { joiner.cancel() }
        async let call = harness.pipeline.image(for: request)
        let joined = try #require(try await joiner.response.metrics)
        let started = try #require(try await starter.response.metrics)
        let called = try #require(try await call.metrics)
        // Then only the joiners are marked, and all have the shared job's stages
        #expect(joined.joinedExistingJob)
        #expect(called.joinedExistingJob)
        #expect(!started.joinedExistingJob)
        #expect(called[.decode] == started[.decode])
        #expect(joined.source == .network && started.source == .network)
        #expect(joined[.decode] != nil && joined[.decode] == started[.decode])
        #expect(joined.transfer == started.transfer)
        #expect(harness.server.stats.requestsStarted == 1)
    }

    @Test func aFailedTaskCarriesARecordWithoutASource() async throws {
        // Given a pipeline that collects task metrics, and a path the server answers with 404
        let harness = try Harness(collectsTaskMetrics: true)
        harness.server.route("/gone.jpg", Route(status: 404))
        let task = harness.pipeline.imageTask(for: harness.request("/gone.jpg"))
        defer { task.cancel() }
        // When the task fails
        await #expect(throws: PinholeError.self) { try await task.response }
        // Then it has a record: no source, the time it took, the wait for the network slot
        let metrics = try #require(task.metrics)
        #expect(metrics.source == nil)
        #expect(metrics.total > .zero)
        #expect(metrics[.networkQueueWait] != nil)
        #expect(metrics[.decode] == nil)
    }

    @Test func withoutTheOptionNothingIsRecorded() async throws {
        // Given a pipeline with the default configuration
        let harness = try Harness()
        harness.server.route("/e.jpg", .image(try await Fixture.input("size-key-source.jpg")))
        let task = harness.pipeline.imageTask(for: harness.request("/e.jpg", size: 100))
        defer { task.cancel() }
        // When an image is loaded, then again from memory
        let loaded = try await task.response
        let hit = try await harness.pipeline.image(for: harness.request("/e.jpg", size: 100))
        // Then no response and no task has a record
        #expect(loaded.metrics == nil && hit.metrics == nil && task.metrics == nil)
    }
}
