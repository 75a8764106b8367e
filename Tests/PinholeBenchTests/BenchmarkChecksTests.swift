import Foundation
import Pinhole
import PinholeCurl
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Testing

@testable import PinholeBench

/// A benchmark that measured the wrong work must say so instead of reporting its figures (issue 25): the hit
/// benchmark checks that its lookups hit, the download benchmark that every body has the size served.
@Suite(.timeLimit(scaledMinutes: 1))
struct BenchmarkChecksTests {
    @Test func theHitBenchmarkFailsWhenItsLookupsMissTheMemoryCache() async throws {
        // Given the pipeline benchmark, scaled down, and a pipeline without a memory cache
        let benchmark = PipelineBenchmark(configuration: Self.smallPipelineRuns)
        var configuration = ImagePipeline.Configuration(decoder: InstantDecoder(), dataLoader: InstantDataLoader())
        configuration.memoryCache = nil

        // When it measures hits on that pipeline
        let outcome = await Result { try await benchmark.measureHits(on: ImagePipeline(configuration: configuration)) }

        // Then it fails, naming the misses, instead of reporting the time of a miss as a hit's
        #expect(throws: BenchmarkCheckFailure.self) { try outcome.get() }
    }

    @Test func theHitBenchmarkMeasuresHitsOnAPipelineWithAMemoryCache() async throws {
        // Given the pipeline benchmark, scaled down, and a pipeline with its default memory cache
        let benchmark = PipelineBenchmark(configuration: Self.smallPipelineRuns)
        let pipeline = ImagePipeline(
            configuration: .init(decoder: InstantDecoder(), dataLoader: InstantDataLoader()))

        // When it measures hits
        let (sync, async, dictionary) = try await benchmark.measureHits(on: pipeline)

        // Then every round has its figure
        #expect(sync.values.count == 2 && async.values.count == 2 && dictionary.values.count == 2)
    }

    @Test func theDownloadBenchmarkFailsWhenABodyIsNotTheSizeServed() async throws {
        // Given a loopback server that serves a shorter body (half a JPEG) for one of the benchmark's URLs
        let server = try PinholeTestServer()
        let image = try await VipsEncoder().encode(
            PixelImage(
                width: 64, height: 48, pixelFormat: .rgb8,
                pixels: (0..<(64 * 48 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
            options: EncodingOptions(format: .jpeg, quality: 80))
        let short = image.prefix(image.count / 2)
        server.setHandler { request in
            guard request.path.hasPrefix("/d/") else { return nil }
            return .image(request.path.hasSuffix("/3.jpg") ? short : image)
        }
        let loader = HTTPDataLoader()
        let benchmark = DownloadBenchmark(configuration: .init())

        // When the benchmark downloads 8 bodies through it, expecting the size served
        let cut = await Result {
            try await benchmark.download(
                server: server, loader: loader, tag: "cut", count: 8, expectedBytes: image.count)
        }
        let whole = await Result {
            try await benchmark.download(
                server: server, loader: loader, tag: "whole", count: 2, expectedBytes: image.count)
        }
        await server.shutDown()

        // Then the run with the short body fails, and a run of whole bodies passes
        #expect(throws: BenchmarkCheckFailure.self) { try cut.get() }
        #expect(throws: Never.self) { try whole.get() }
    }

    /// One warm-up and two measured rounds of 100 lookups.
    private static var smallPipelineRuns: PipelineBenchmark.Configuration {
        var configuration = PipelineBenchmark.Configuration()
        configuration.runs = 2
        configuration.hitsPerRun = 100
        return configuration
    }
}
