import Foundation
import Pinhole
import PinholeServer
import PinholeTestFakes
import PinholeTestSupport
import PinholeVips
import Synchronization
import Testing

/// The service's deadline covers the whole answer, decode included, and cancels the work it gives up on.
@Suite(.timeLimit(scaledMinutes: 1))
struct ThumbnailServiceDeadlineTests {
    @Test func aDecodeThatOutlastsTheDeadlineIsCancelledAndAnsweredAsATimeout() async throws {
        // Given a service whose decoder never finishes, with a deadline of 300 ms
        let decoder = FakeDecoder(gate: TestGate(open: false))  // a decode that never ends on its own
        let pipeline = ImagePipeline(
            configuration: .init(decoder: decoder, dataLoader: Self.instantLoader(), encoder: VipsEncoder()))
        var configuration = ThumbnailService.Configuration(pipeline: pipeline, encoder: VipsEncoder())
        configuration.timeout = LoadFactor.scaled(.milliseconds(300))
        let service = ThumbnailService(configuration: configuration)
        // When a thumbnail is asked
        var options = ProcessingOptions()
        options.width = 10
        await #expect {
            _ = try await service.thumbnail(
                source: URL(string: "http://e.com/a.jpg")!, options: options, accept: AcceptHeader(nil))
        } throws: { error in
            // Then it fails as a timeout
            (error as? PinholeError)?.code == .timeout
        }
        // And the decode was cancelled, not left running
        #expect(await eventually { decoder.cancelledDecodes >= 1 })
    }

    /// An encode that cannot be interrupted: 3 s on a thread of its own, cancellation or not.
    final class StubbornEncoder: ImageEncoding {
        let started = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)

        func encode(_ image: PixelImage, options: EncodingOptions) async throws -> Data {
            started.store(true, ordering: .sequentiallyConsistent)
            return await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
                Thread.detachNewThread {
                    Thread.sleep(forTimeInterval: 5)
                    self.finished.store(true, ordering: .sequentiallyConsistent)
                    continuation.resume(returning: Data([1, 2, 3]))
                }
            }
        }
    }

    /// Answers every URL at once with the same bytes.
    static func instantLoader() -> GatedDataLoader {
        GatedDataLoader(answering: { .success(DataResponse(data: Data([0xFF, 0xD8, 0xFF]), statusCode: 200, url: $0)) })
    }

    /// Serves one real 64×48 JPEG for every URL.
    static func jpegLoader(_ jpeg: Data) -> GatedDataLoader {
        GatedDataLoader(answering: { url in
            .success(DataResponse(data: jpeg, statusCode: 200, headers: ["content-type": "image/jpeg"], url: url))
        })
    }

    @Test func theTimeoutIsAnsweredWithoutWaitingForAnEncodeThatCannotStop() async throws {
        // Given a service whose encoder takes 5 s and ignores cancellation, with a deadline of 300 ms (scaled by the
        // load: the download and decode before the encode must fit in it, or no encode is left to wait for)
        let encoder = StubbornEncoder()
        let jpeg = try await OriginImages.halves(width: 64, height: 48)
        let pipeline = ImagePipeline(
            configuration: .init(decoder: VipsDecoder(), dataLoader: Self.jpegLoader(jpeg), encoder: VipsEncoder()))
        var configuration = ThumbnailService.Configuration(pipeline: pipeline, encoder: encoder)
        configuration.timeout = LoadFactor.scaled(.milliseconds(300))
        let service = ThumbnailService(configuration: configuration)
        // When a thumbnail is asked
        var options = ProcessingOptions()
        options.width = 10
        await #expect {
            _ = try await service.thumbnail(
                source: URL(string: "http://e.com/a.jpg")!, options: options, accept: AcceptHeader(nil))
        } throws: { error in
            // Then the timeout arrives while the encode is still running
            (error as? PinholeError)?.code == .timeout
                && !encoder.finished.load(ordering: .sequentiallyConsistent)
        }
        // (and the abandoned encode ends before the test does: no work outlives it)
        let encodeStarted = encoder.started.load(ordering: .sequentiallyConsistent)
        try #require(encodeStarted, "the download and decode outlasted the deadline")
        #expect(await eventually { encoder.finished.load(ordering: .sequentiallyConsistent) })
    }
}
