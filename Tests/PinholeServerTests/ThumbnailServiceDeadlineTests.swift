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
        // Given a service whose decoder never finishes, with a deadline of 1 s (time to reach the decode when loaded)
        let decoder = FakeDecoder(gate: TestGate(open: false))  // a decode that never ends on its own
        let pipeline = ImagePipeline(
            configuration: .init(decoder: decoder, dataLoader: Self.instantLoader(), encoder: VipsEncoder()))
        var configuration = ThumbnailService.Configuration(pipeline: pipeline, encoder: VipsEncoder())
        configuration.timeout = LoadFactor.scaled(.seconds(1))
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

    /// An encode that cannot be interrupted: it runs on a thread of its own until ``release()`` (or 30 s), cancellation
    /// or not, so an answer that waited for it would come only after the test released it.
    final class StubbornEncoder: ImageEncoding {
        let started = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)
        private let releaser = DispatchSemaphore(value: 0)

        func encode(_ image: PixelImage, options: EncodingOptions) async throws -> Data {
            started.store(true, ordering: .sequentiallyConsistent)
            return await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
                // A thread of its own, never the cooperative pool: waiting here is what this fake is for.
                Thread.detachNewThread {
                    _ = self.releaser.wait(timeout: .now() + 30)
                    self.finished.store(true, ordering: .sequentiallyConsistent)
                    continuation.resume(returning: Data([1, 2, 3]))
                }
            }
        }

        /// Lets the encode end.
        func release() { releaser.signal() }
    }

    /// Answers every URL at once with the same bytes.
    static func instantLoader() -> GatedDataLoader {
        GatedDataLoader(answering: { .success(DataResponse(data: Data([0xFF, 0xD8, 0xFF]), statusCode: 200, url: $0)) })
    }

    @Test func theTimeoutIsAnsweredWithoutWaitingForAnEncodeThatCannotStop() async throws {
        // Given a service whose encoder ignores cancellation and runs until the test releases it, with a deadline of
        // 1 s (scaled by the load) and an instant decode, so the encode starts well within the deadline
        let encoder = StubbornEncoder()
        let pipeline = ImagePipeline(
            configuration: .init(
                decoder: FakeDecoder(),
                dataLoader: GatedDataLoader(answering: { .success(FakeImage.response(for: $0)) }),
                encoder: VipsEncoder()))
        var configuration = ThumbnailService.Configuration(pipeline: pipeline, encoder: encoder)
        configuration.timeout = LoadFactor.scaled(.seconds(1))
        let service = ThumbnailService(configuration: configuration)
        // When a thumbnail is asked
        var options = ProcessingOptions()
        options.width = 10
        let error = await #expect(throws: PinholeError.self) {
            _ = try await service.thumbnail(
                source: URL(string: "http://e.com/a.jpg")!, options: options, accept: AcceptHeader(nil))
        }
        // Then the answer is a timeout, given while the encode is still held (an answer that waited for it would come
        // only after the release below, or after the encoder's own 30 s)
        let finishedBeforeTheAnswer = encoder.finished.load(ordering: .sequentiallyConsistent)
        #expect(error?.code == .timeout)
        let started = encoder.started.load(ordering: .sequentiallyConsistent)
        #expect(started, "the decode outlasted the deadline")
        #expect(!finishedBeforeTheAnswer, "the answer waited for the encode")
        // And the abandoned encode ends before the test does once released: no work outlives it
        encoder.release()
        let finishes = { encoder.finished.load(ordering: .sequentiallyConsistent) }
        #expect(await eventually(finishes))
    }
}
