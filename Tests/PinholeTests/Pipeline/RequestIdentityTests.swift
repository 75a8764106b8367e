import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// Request identity through the pipeline: which callers share a job, and that coalescing never changes what a
/// caller asked for. Every load gives distinct bytes and every decode distinct pixels (``VersionedLoader``,
/// ``PayloadDecoder``), so a test can tell which load an image came from.
@Suite(.timeLimit(scaledMinutes: 1))
struct RequestIdentityTests {
    typealias Fixture = VersionedPipeline

    /// Loads `request` once so its bytes (version 1) are on disk, then empties the memory cache.
    private func storeVersionOne(_ fixture: Fixture, _ request: ImageRequest) async throws {
        let first = try await fixture.pipeline.image(for: request)
        try #require(Fixture.payload(first) == VersionedLoader.payload(request.url, version: 1))
        try #require(await fixture.pipeline.diskCache()?.count == 1)
        fixture.pipeline.removeAllCachedImages()
    }

    /// Starts `request` while a normal request's job decodes disk bytes (decodes held), and returns both answers.
    private func joinWhileDecodingDiskBytes(
        _ fixture: Fixture, normal: ImageRequest, then second: ImageRequest
    ) async throws -> (normal: ImageResponse, second: ImageResponse) {
        fixture.decoder.gate.close()
        let normalTask = Task { try await fixture.pipeline.image(for: normal) }
        defer { normalTask.cancel() }
        try #require(await eventually { fixture.decoder.gate.waitingCount == 1 })
        let joinsBefore = fixture.pipeline.metrics.coalescedJoins
        let secondTask = Task { try await fixture.pipeline.image(for: second) }
        defer { secondTask.cancel() }
        // The second request either decodes on its own or joins the running job; whichever happens, go on.
        try #require(
            await eventually {
                fixture.decoder.gate.waitingCount == 2 || fixture.pipeline.metrics.coalescedJoins > joinsBefore
            })
        fixture.decoder.gate.open()
        return (try await normalTask.cancellableValue, try await secondTask.cancellableValue)
    }

    @Test func aReloadThatArrivesWhileANormalJobDecodesDiskBytesGetsFreshBytes() async throws {
        // Given version 1 of an image on disk, and a normal request decoding it from there
        let fixture = try Fixture()
        let url = Fixture.url("feed.jpg")
        let normal = ImageRequest(url: url, maxPixelSize: 100)
        try await storeVersionOne(fixture, normal)
        var reload = normal
        reload.options = [.reloadIgnoringCachedData]

        // When a pull-to-refresh request for the same image arrives meanwhile
        let (first, refreshed) = try await joinWhileDecodingDiskBytes(fixture, normal: normal, then: reload)

        // Then the reload went to the source (version 2) while the normal request got the disk's version 1
        #expect(Fixture.payload(refreshed) == VersionedLoader.payload(url, version: 2))
        #expect(refreshed.source == .network)
        #expect(Fixture.payload(first) == VersionedLoader.payload(url, version: 1))
        #expect(first.source == .diskCache)
        #expect(fixture.loader.loads(of: url) == 2)
        // And the reloaded bytes replaced the disk entry (a reload still stores)
        fixture.pipeline.removeAllCachedImages()
        let later = try await fixture.pipeline.image(for: normal)
        #expect(later.source == .diskCache)
        #expect(Fixture.payload(later) == VersionedLoader.payload(url, version: 2))
    }

    @Test func aDiskDisabledRequestNeverGetsAJoinedJobsDiskBytes() async throws {
        // Given version 1 on disk, and a normal request decoding it from there
        let fixture = try Fixture()
        let url = Fixture.url("private.jpg")
        let normal = ImageRequest(url: url, maxPixelSize: 100)
        try await storeVersionOne(fixture, normal)
        let noDisk = ImageRequest(url: url, thumbnail: normal.thumbnail, options: [.disableDiskCache])

        // When a request that may not use the disk cache arrives meanwhile
        let (_, answer) = try await joinWhileDecodingDiskBytes(fixture, normal: normal, then: noDisk)

        // Then it got bytes from the source, and they were not written to disk (the entry is still version 1)
        #expect(Fixture.payload(answer) == VersionedLoader.payload(url, version: 2))
        #expect(answer.source == .network)
        fixture.pipeline.removeAllCachedImages()
        let later = try await fixture.pipeline.image(for: normal)
        #expect(later.source == .diskCache)
        #expect(Fixture.payload(later) == VersionedLoader.payload(url, version: 1))
    }

    @Test func aNormalRequestThatArrivesWhileADiskDisabledLoadRunsStillStoresItsBytes() async throws {
        // Given a load for a request that may not use the disk cache, held at the source
        let fixture = try Fixture()
        let url = Fixture.url("mixed.jpg")
        let noDisk = ImageRequest(url: url, thumbnail: .init(maxPixelSize: 80), options: [.disableDiskCache])
        let normal = ImageRequest(url: url, maxPixelSize: 80)
        fixture.loader.gate.close()
        let noDiskTask = Task { try await fixture.pipeline.image(for: noDisk) }
        defer { noDiskTask.cancel() }
        try #require(await eventually { fixture.loader.gate.waitingCount == 1 })

        // When a normal request for the same image arrives
        let joinsBefore = fixture.pipeline.metrics.coalescedJoins
        let normalTask = Task { try await fixture.pipeline.image(for: normal) }
        defer { normalTask.cancel() }
        try #require(
            await eventually {
                fixture.loader.gate.waitingCount == 2 || fixture.pipeline.metrics.coalescedJoins > joinsBefore
            })
        fixture.loader.gate.open()
        let withoutDisk = try await noDiskTask.cancellableValue
        let stored = try await normalTask.cancellableValue

        // Then each got its own load, and only the normal request's bytes are on disk
        #expect(Fixture.payload(withoutDisk) == VersionedLoader.payload(url, version: 1))
        #expect(Fixture.payload(stored) == VersionedLoader.payload(url, version: 2))
        #expect(await fixture.pipeline.diskCache()?.count == 1)
        fixture.pipeline.removeAllCachedImages()
        let later = try await fixture.pipeline.image(for: normal)
        #expect(later.source == .diskCache)
        #expect(Fixture.payload(later) == VersionedLoader.payload(url, version: 2))
    }

    @Test func requestsThatDifferOnlyInPriorityShareOneLoadAndOneDecode() async throws {
        // Given three requests for one image at three priorities, while the source holds the load
        let fixture = try Fixture(diskCache: false)
        let url = Fixture.url("shared.jpg")
        fixture.loader.gate.close()
        let tasks = [ImageRequest.Priority.low, .high, .veryHigh].map { priority in
            fixture.pipeline.imageTask(for: ImageRequest(url: url, maxPixelSize: 64, priority: priority))
        }
        defer { for task in tasks { task.cancel() } }

        // When all have joined and the load is answered
        try #require(await eventually { fixture.pipeline.metrics.coalescedJoins == 2 })
        fixture.loader.gate.open()
        var payloads: [String] = []
        for task in tasks { payloads.append(Fixture.payload(try await task.response)) }

        // Then one load and one decode served all three, with the same pixels
        #expect(payloads == Array(repeating: VersionedLoader.payload(url, version: 1), count: 3))
        #expect(fixture.loader.loads(of: url) == 1)
        #expect(fixture.decoder.decodeCount == 1)
    }

    @Test func aRequestThatSkipsMemoryReadsStillJoinsARunningJob() async throws {
        // Given a load held at the source
        let fixture = try Fixture(diskCache: false)
        let url = Fixture.url("reads.jpg")
        fixture.loader.gate.close()
        let first = Task { try await fixture.pipeline.image(for: ImageRequest(url: url, maxPixelSize: 64)) }
        defer { first.cancel() }
        try #require(await eventually { fixture.loader.gate.waitingCount == 1 })

        // When a request that only skips memory-cache reads arrives
        let second = Task {
            try await fixture.pipeline.image(
                for: ImageRequest(url: url, thumbnail: .init(maxPixelSize: 64), options: [.disableMemoryCacheReads]))
        }
        defer { second.cancel() }
        try #require(await eventually { fixture.pipeline.metrics.coalescedJoins == 1 })
        fixture.loader.gate.open()

        // Then both got the one load
        #expect(Fixture.payload(try await first.cancellableValue) == Fixture.payload(try await second.cancellableValue))
        #expect(fixture.loader.loads(of: url) == 1)
    }

    @Test func aRequestThatMayWriteTheMemoryCacheDoesNotJoinAJobThatMayNot() async throws {
        // Given a request that may not write the memory cache, decoding (decodes held)
        let fixture = try Fixture(diskCache: false)
        let url = Fixture.url("memory.jpg")
        let noWrite = ImageRequest(url: url, thumbnail: .init(maxPixelSize: 50), options: [.disableMemoryCacheWrites])
        let normal = ImageRequest(url: url, maxPixelSize: 50)
        fixture.decoder.gate.close()
        let noWriteTask = Task { try await fixture.pipeline.image(for: noWrite) }
        defer { noWriteTask.cancel() }
        try #require(await eventually { fixture.decoder.gate.waitingCount == 1 })

        // When a normal request arrives and both finish
        let joinsBefore = fixture.pipeline.metrics.coalescedJoins
        let normalTask = Task { try await fixture.pipeline.image(for: normal) }
        defer { normalTask.cancel() }
        try #require(
            await eventually {
                fixture.decoder.gate.waitingCount == 2 || fixture.pipeline.metrics.coalescedJoins > joinsBefore
            })
        fixture.decoder.gate.open()
        _ = try await noWriteTask.cancellableValue
        let answer = try await normalTask.cancellableValue

        // Then the normal request's image is in the memory cache
        let cached = try #require(fixture.pipeline.cachedImage(for: normal))
        #expect(Fixture.payload(cached) == Fixture.payload(answer))
    }

    @Test func aRequestThatMayNotWriteTheMemoryCacheLeavesItEmpty() async throws {
        let fixture = try Fixture(diskCache: false)
        let request = ImageRequest(
            url: Fixture.url("nowrite.jpg"), thumbnail: .init(maxPixelSize: 50), options: [.disableMemoryCacheWrites])
        _ = try await fixture.pipeline.image(for: request)
        #expect(fixture.pipeline.cachedImage(for: ImageRequest(url: request.url, maxPixelSize: 50)) == nil)
    }

    @Test func concurrentCallersForManyURLsEachGetTheirOwnURLsPixels() async throws {
        // Given 8 URLs asked for by 5 callers each, at mixed priorities and sizes, while the source holds loads
        let fixture = try Fixture(diskCache: false) {
            $0.networkConcurrencyLimit = 8
            $0.networkConcurrencyLimitPerHost = nil  // every URL is on one host
        }
        let urls = (0..<8).map { Fixture.url("grid/\($0).jpg") }
        fixture.loader.gate.close()
        let priorities = ImageRequest.Priority.allCases
        var tasks: [(URL, ImageTask)] = []
        for caller in 0..<40 {
            let url = urls[caller % urls.count]
            let request = ImageRequest(
                url: url, maxPixelSize: (caller / urls.count) % 2 == 0 ? 64 : 32,
                priority: priorities[caller % priorities.count])
            tasks.append((url, fixture.pipeline.imageTask(for: request)))
        }
        defer { for (_, task) in tasks { task.cancel() } }
        // (every caller has joined before the loads end: 40 callers on 16 image jobs on 8 data jobs; on a loaded
        // machine a task's body could otherwise start after its URL's load was over, and load it again)
        try #require(
            await eventually {
                fixture.loader.gate.waitingCount == urls.count && fixture.pipeline.metrics.coalescedJoins == 24 + 8
            })
        fixture.loader.gate.open()

        // Then every caller got its own URL's first load, and each URL was loaded once
        for (url, task) in tasks {
            #expect(Fixture.payload(try await task.response) == VersionedLoader.payload(url, version: 1))
        }
        for url in urls { #expect(fixture.loader.loads(of: url) == 1) }
        #expect(fixture.decoder.decodeCount == 16)
    }

    @Test func jobKeysHoldWhatChangesTheResultAndNotThePriority() {
        let url = Fixture.url("k.jpg")
        let base = ImageRequest(url: url, maxPixelSize: 100)
        func with(_ change: (inout ImageRequest) -> Void) -> ImageRequest {
            var request = base
            change(&request)
            return request
        }
        // Priority and memory-read skipping: same jobs
        #expect(with { $0.priority = .veryHigh }.imageJobKey == base.imageJobKey)
        #expect(with { $0.options = [.disableMemoryCacheReads] }.imageJobKey == base.imageJobKey)
        #expect(with { $0.url = URL(string: url.absoluteString + "#frag")! }.imageJobKey == base.imageJobKey)
        // Another size: another image job over the same data job
        #expect(with { $0.thumbnail = .init(maxPixelSize: 50) }.imageJobKey != base.imageJobKey)
        #expect(with { $0.thumbnail = .init(maxPixelSize: 50) }.dataJobKey == base.dataJobKey)
        // Where bytes may come from or go to: other jobs
        #expect(with { $0.options = [.reloadIgnoringCachedData] }.dataJobKey != base.dataJobKey)
        #expect(with { $0.options = [.disableDiskCache] }.dataJobKey != base.dataJobKey)
        #expect(with { $0.options = [.disableMemoryCacheWrites] }.imageJobKey != base.imageJobKey)
        #expect(with { $0.options = [.disableMemoryCacheWrites] }.dataJobKey == base.dataJobKey)
        // Options with the same effect: the same job
        #expect(
            with { $0.options = [.disableDiskCache, .reloadIgnoringCachedData] }.dataJobKey
                == with { $0.options = [.disableDiskCache] }.dataJobKey)
        // Another source: another job
        #expect(with { $0.url = Fixture.url("other.jpg") }.dataJobKey != base.dataJobKey)
    }
}
