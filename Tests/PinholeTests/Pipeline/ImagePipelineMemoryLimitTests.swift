import Foundation
import Pinhole
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The memory cache's cost limit holds when the pipeline fills it from many concurrent decodes.
@Suite(.timeLimit(scaledMinutes: 1))
struct ImagePipelineMemoryLimitTests {
    /// Requests per case: 3,000, or 600 in a sanitized run. Under ThreadSanitizer the 3 cases' 9,000 tasks (and their
    /// watchers, which only yield) held the cooperative pool for 88–93 s: every other test of the target waited as
    /// long (a CRC check of 0.01 s ended after 91 s), and bounded waits of 77–91 s ran out in 3 such runs.
    static let requestCount = LoadFactor.isSanitizedRun ? 600 : 3_000

    @Test(arguments: [(100_000, 40_000), (250_000, 60_000), (1_000_000, 100_000)])
    func costLimitIsNeverExceededWhileManyDecodesInsert(_ costLimit: Int, _ entryCostLimit: Int) async throws {
        // Given a pipeline with a small cache, 8 decodes at once, and thumbnails of 3…57,600 bytes each
        let cache = MemoryCache<ImageKey, DecodedImage>(
            configuration: .init(costLimit: costLimit, countLimit: 200, entryCostLimit: entryCostLimit))
        var configuration = ImagePipeline.Configuration(
            decoder: FakeDecoder(), dataLoader: GatedDataLoader(answering: { .success(FakeImage.response(for: $0)) }))
        configuration.memoryCache = cache
        configuration.processingConcurrencyLimit = 8
        let pipeline = ImagePipeline(configuration: configuration)
        var rng = SystemRandomNumberGenerator()
        let requests = (0..<Self.requestCount).map { _ in
            ImageRequest(
                url: PipelineFixture.url("\(Int.random(in: 0..<150, using: &rng)).png"),
                thumbnail: ThumbnailOptions(maxPixelSize: Int.random(in: 1...160, using: &rng)))
        }
        // When 3,000 requests (600 sanitized) run together while a watcher samples the cache
        let done = Locked(false)
        async let watcher = { () async -> (Int, Int) in
            var samples = 0
            var worst = 0
            while !done.withLock({ $0 }) {
                worst = max(worst, cache.totalCost)
                #expect(cache.count <= 200)
                samples += 1
                await Task.yield()
            }
            return (samples, worst)
        }()
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for request in requests {
                group.addTask {
                    let response = try? await pipeline.image(for: request)
                    // Then right after each caller's insert the total is within the limit
                    #expect(cache.totalCost <= costLimit)
                    return response != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        done.withLock { $0 = true }
        let (samples, worst) = await watcher
        // And no sample ever saw it exceeded, while the cache was really used
        #expect(succeeded == Self.requestCount)
        #expect(samples > 0)
        #expect(worst <= costLimit)
        #expect(cache.totalCost <= costLimit)
        #expect(cache.count > 0)
        #expect(pipeline.metrics.decodes > 150)
    }
}
