import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// `ImageTask` progress and events, and the disk-only prefetcher (fake loader and decoder).
@Suite(.timeLimit(scaledMinutes: 1))
struct ImageTaskEventsTests {
    typealias Fixture = VersionedPipeline

    @Test func progressArrivesThenOneFinishedEventForEveryObserver() async throws {
        // Given a loader that reports progress in three steps, and a task whose load is held
        let loader = RecordingLoader()
        let pipeline = ImagePipeline(configuration: .init(decoder: PayloadDecoder(), dataLoader: loader))
        loader.inner.gate.close()
        let task = pipeline.imageTask(for: ImageRequest(url: Fixture.url("e.jpg"), maxPixelSize: 50))
        let first = task.events
        let second = task.events
        try #require(await eventually { loader.inner.gate.waitingCount == 1 })
        // When the load goes on
        loader.inner.gate.open()
        // Then both observers see the three progress steps, then finished with the image
        for events in [first, second] {
            var seen: [ImageTask.Event] = []
            for await event in events { seen.append(event) }
            let steps = seen.compactMap { if case .progress(let p) = $0 { p } else { nil } }
            let total = try #require(steps.last?.expectedBytes)
            #expect(steps.map(\.receivedBytes) == [total / 3, total * 2 / 3, total])
            guard case .finished(.success(let response))? = seen.last else {
                Issue.record("no finished event: \(seen)")
                continue
            }
            #expect(response.image.width == 50)
        }
        // And the task's progress is complete; an observer that comes after the end gets the end at once
        #expect(task.progress?.fraction == 1)
        var late: [ImageTask.Event] = []
        for await event in task.events { late.append(event) }
        #expect(late.count == 2)  // the last progress, then finished
    }

    @Test func aCancelledTaskFinishesWithCancellation() async throws {
        let fixture = try Fixture(diskCache: false)
        fixture.loader.gate.close()
        let task = fixture.pipeline.imageTask(for: ImageRequest(url: Fixture.url("c.jpg")))
        let events = task.events
        try #require(await eventually { fixture.loader.gate.waitingCount == 1 })
        task.cancel()
        var last: ImageTask.Event?
        for await event in events { last = event }
        fixture.loader.gate.open()
        guard case .finished(.failure(let error))? = last else {
            Issue.record("got \(String(describing: last))")
            return
        }
        #expect(error is CancellationError)
    }

    @Test func aDiskPrefetcherStoresCheckedBytesAndKeepsNoImage() async throws {
        // Given a prefetcher that stops at the disk
        let fixture = try Fixture()
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline, destination: .diskCache)
        let urls = [Fixture.url("p1.jpg"), Fixture.url("p2.jpg")]
        // When it prefetches two URLs
        prefetcher.startPrefetching(with: urls)
        try #require(await eventually { prefetcher.activeCount == 0 && fixture.loader.totalLoads == 2 })
        // Then both sources are on disk, each checked by one small decode before it was stored (only bytes that
        // decode are stored), and no image was made for display or put in memory
        #expect(await eventually { await fixture.pipeline.diskCache()?.count == 2 })
        #expect(fixture.decoder.decodeCount == 2 && fixture.pipeline.metrics.decodes == 0)
        #expect(fixture.pipeline.configuration.memoryCache?.count == 0)
        // And a later request is decoded from the disk, with no new load
        let shown = try await fixture.pipeline.image(for: ImageRequest(url: urls[0], maxPixelSize: 64))
        #expect(shown.source == .diskCache && fixture.loader.totalLoads == 2)
    }

    @Test func stoppingADiskPrefetchCancelsItsDownload() async throws {
        let fixture = try Fixture()
        fixture.loader.gate.close()
        let prefetcher = ImagePrefetcher(pipeline: fixture.pipeline, destination: .diskCache)
        let url = Fixture.url("stop.jpg")
        prefetcher.startPrefetching(with: [url])
        try #require(await eventually { fixture.loader.gate.waitingCount == 1 })
        prefetcher.stopPrefetching(with: [url])
        // The download's only caller left: the load is cancelled and nothing is stored
        #expect(await eventually { fixture.loader.gate.waitingCount == 0 && prefetcher.activeCount == 0 })
        fixture.loader.gate.open()
        #expect(await fixture.pipeline.diskCache()?.count == 0)
    }
}
