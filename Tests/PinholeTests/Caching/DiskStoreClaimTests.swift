import Foundation
import Pinhole
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The image jobs that share one download (two sizes of one source) store its bytes on disk once: the first whose
/// decode succeeds claims the store. Issue 25 suspected that a job cancelled while it stored used the claim up,
/// so that no sibling ever stored.
@Suite(.timeLimit(scaledMinutes: 1))
struct DiskStoreClaimTests {
    @Test func aJobCancelledAfterItsDecodeStillStoresTheBytesItClaimed() async throws {
        // Given two sizes of one source whose shared download arrived, both decodes held
        let directory = try TemporaryDirectory()
        let loader = GatedDataLoader()
        defer { loader.close() }
        let decoder = HeldDecoder()
        defer { decoder.releaseAll() }
        let diagnostics = Locked<[String]>([])
        var configuration = ImagePipeline.Configuration(decoder: decoder, dataLoader: loader)
        configuration.diskCacheDirectory = directory.url
        configuration.onDiagnostic = { line in diagnostics.withLock { $0.append(line) } }
        let pipeline = ImagePipeline(configuration: configuration)
        let url = PipelineFixture.url("claimed.jpg")
        let small = pipeline.imageTask(for: ImageRequest(url: url, maxPixelSize: 32))
        defer { small.cancel() }
        let large = pipeline.imageTask(for: ImageRequest(url: url, maxPixelSize: 64))
        defer { large.cancel() }
        loader.release(url)
        try #require(await eventually { decoder.heldSizes == [32, 64] })

        // When the small one is cancelled during its decode, which finishes anyway (a codec under way), and only
        // after its store was attempted the large one's decode finishes
        small.cancel()
        try #require(await eventually { decoder.cancelledSizes.contains(32) })
        decoder.release(32)
        let disk = try #require(await pipeline.diskCache())
        try #require(
            await eventually { disk.count == 1 || diagnostics.withLock { !$0.isEmpty } },
            "the cancelled job never reached its store")
        decoder.release(64)
        let response = try await large.response

        // Then the bytes are on disk, and no store failed
        #expect(FakeImage.isImage(response.image, of: url))
        #expect(
            await eventually { await disk.entry(for: ImageRequest(url: url).sourceKey) != nil },
            "nobody stored the bytes")
        #expect(diagnostics.withLock { $0 } == [])
    }
}

/// A decoder whose decodes wait until the test releases their size (``ThumbnailOptions/maxPixelSize``), then
/// finish even when their task was cancelled meanwhile (as a C codec already under way does); records which
/// waiting decodes saw their task cancelled. Images as ``FakeDecoder`` makes them.
final class HeldDecoder: ImageDecoding {
    private struct State {
        var held: [Int: CheckedContinuation<Void, Never>] = [:]
        var released: Set<Int> = []
        var cancelled: Set<Int> = []
        var open = false
    }

    private let state = Locked(State())

    /// The sizes whose decodes wait now.
    var heldSizes: Set<Int> { state.withLock { Set($0.held.keys) } }
    /// The sizes whose decodes saw their task cancelled while they waited.
    var cancelledSizes: Set<Int> { state.withLock { $0.cancelled } }

    func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        let size = options.thumbnail?.maxPixelSize ?? 0
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let goesOn = state.withLock { state in
                    guard !state.open, !state.released.contains(size) else { return true }
                    state.held[size] = continuation
                    return false
                }
                if goesOn { continuation.resume() }
            }
        } onCancel: {
            _ = state.withLock { $0.cancelled.insert(size) }
        }
        return FakeImage.decoded(source: FakeImage.source(of: data), thumbnail: options.thumbnail)
    }

    /// Lets the decode of `size` finish, now or when it comes.
    func release(_ size: Int) {
        let continuation = state.withLock { state in
            state.released.insert(size)
            return state.held.removeValue(forKey: size)
        }
        continuation?.resume()
    }

    /// Lets every decode finish, waiting or to come: for the end of a test.
    func releaseAll() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.held.removeAll() }
            return Array(state.held.values)
        }
        for continuation in waiting { continuation.resume() }
    }
}
