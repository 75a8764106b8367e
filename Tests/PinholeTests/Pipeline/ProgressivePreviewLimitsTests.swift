import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// Preview decodes go through what final decodes do: they are cancelled with the work they belong to, take a
/// slot of the processing limit, and follow the untrusted policy's formats. (They used to run in a detached task
/// that nothing cancelled, beside the limit, with no format list.)
@Suite(.timeLimit(scaledMinutes: 1))
struct ProgressivePreviewLimitsTests {
    struct Fixture {
        let loader = ScanStreamingLoader()
        let decoder = PreviewDecoder()
        let pipeline: ImagePipeline

        init(processingLimit: Int = 2, untrustedFormats: Set<ImageFormat>? = nil) {
            var configuration = ImagePipeline.Configuration(decoder: decoder, dataLoader: loader)
            configuration.processingConcurrencyLimit = processingLimit
            if let untrustedFormats {
                configuration.sourcePolicy = .untrusted(allowedFileRoot: nil)
                configuration.untrustedFormats = untrustedFormats
            }
            pipeline = ImagePipeline(configuration: configuration)
        }

        /// A request with previews for a public address literal (no DNS under the untrusted policy).
        static func request(_ name: String, previews: Bool = true) -> ImageRequest {
            ImageRequest(
                url: URL(string: "http://93.184.216.34/\(name).jpg")!, maxPixelSize: 8,
                options: previews ? [.progressivePreviews] : [])
        }

        /// Ends everything the test left waiting.
        func close() {
            loader.gate.open()
            decoder.previewGate.open()
            decoder.finalGate.open()
        }
    }

    @Test func cancellingTheOnlyTaskCancelsItsRunningPreviewDecode() async throws {
        // Given a task whose download paused after a scan, and whose preview decode is running
        let fixture = Fixture()
        defer { fixture.close() }
        fixture.decoder.previewGate.close()
        let task = fixture.pipeline.imageTask(for: Fixture.request("slow-cancel"))
        defer { task.cancel() }
        try #require(await eventually { fixture.decoder.previewStarts == 1 })
        // When the task is cancelled
        task.cancel()
        // Then the preview decode is cancelled too, and none other starts
        #expect(await eventually { fixture.decoder.previewsCancelled == 1 })
        #expect(fixture.decoder.previewStarts == 1)
    }

    @Test func theLastTaskWantingPreviewsLeavingCancelsThePreviewWhileTheDownloadGoesOn() async throws {
        // Given a task with previews whose preview decode runs, and a plain task sharing its download
        let fixture = Fixture()
        defer { fixture.close() }
        fixture.decoder.previewGate.close()
        let withPreviews = fixture.pipeline.imageTask(for: Fixture.request("slow-shared"))
        defer { withPreviews.cancel() }
        try #require(await eventually { fixture.decoder.previewStarts == 1 })
        let plain = fixture.pipeline.imageTask(for: Fixture.request("slow-shared", previews: false))
        defer { plain.cancel() }
        // When the task with previews is cancelled
        withPreviews.cancel()
        // Then its preview decode is cancelled, and the plain task still gets the image
        #expect(await eventually { fixture.decoder.previewsCancelled == 1 })
        fixture.loader.gate.open()
        #expect(try await plain.response.image.width == 8)
    }

    @Test func aPreviewStillDecodingWhenTheDownloadEndsIsCancelled() async throws {
        // Given a task whose preview decode is running while its download is paused
        let fixture = Fixture()
        defer { fixture.close() }
        fixture.decoder.previewGate.close()
        let task = fixture.pipeline.imageTask(for: Fixture.request("slow-finish"))
        defer { task.cancel() }
        try #require(await eventually { fixture.decoder.previewStarts == 1 })
        // When the rest of the bytes arrive and the task finishes
        fixture.loader.gate.open()
        #expect(try await task.response.image.width == 8)
        // Then the preview decode was cancelled: nothing is left decoding for a finished load
        #expect(await eventually { fixture.decoder.previewsCancelled == 1 })
    }

    @Test func previewDecodesWaitForASlotOfTheProcessingLimit() async throws {
        // Given one processing slot, held by another image's final decode
        let fixture = Fixture(processingLimit: 1)
        defer { fixture.close() }
        fixture.decoder.finalGate.close()
        let blocker = fixture.pipeline.imageTask(for: Fixture.request("blocker", previews: false))
        defer { blocker.cancel() }
        try #require(await eventually { fixture.decoder.finalStarts == 1 })
        // When a task's download delivers its first scan
        let task = fixture.pipeline.imageTask(for: Fixture.request("slow-limited"))
        defer { task.cancel() }
        try #require(await eventually { fixture.loader.paused.count == 1 })
        // Then its preview decode waits for the slot instead of starting beside the final decode
        #expect(await eventually { fixture.pipeline.processingQueue.waitingCount == 1 })
        #expect(fixture.decoder.previewStarts == 0)
        // And it runs once the slot is free
        fixture.decoder.finalGate.open()
        #expect(await eventually { fixture.decoder.previewStarts == 1 })
    }

    @Test func anUntrustedPolicyThatRefusesJPEGGetsNoPreviewDecode() async throws {
        // Given an untrusted policy that allows PNG only
        let fixture = Fixture(untrustedFormats: [.png])
        defer { fixture.close() }
        fixture.loader.gate.open()
        let request = Fixture.request("slow-refused")
        // When a progressive JPEG is loaded with previews
        let task = fixture.pipeline.imageTask(for: request)
        defer { task.cancel() }
        var previews = 0
        for await event in task.events {
            if case .preview = event { previews += 1 }
        }
        // Then the load fails as unsupported, no partial bytes were asked for, and no preview was decoded
        let error = await #expect(throws: PinholeError.self) { try await task.response }
        #expect(error?.code == .unsupportedFormat)
        #expect(fixture.loader.partialDataRequests.isEmpty)
        #expect(fixture.decoder.previewStarts == 0 && previews == 0)
    }

    @Test func anUntrustedPolicyConfinesPreviewDecodesToItsFormats() async throws {
        // Given an untrusted policy that allows JPEG and PNG
        let fixture = Fixture(untrustedFormats: [.jpeg, .png])
        defer { fixture.close() }
        // When a task's download delivers its first scan
        let task = fixture.pipeline.imageTask(for: Fixture.request("slow-confined"))
        defer { task.cancel() }
        try #require(await eventually { fixture.decoder.previewStarts == 1 })
        // Then the preview decode was given the policy's formats, as the final decode is
        #expect(fixture.decoder.previewOptions.first?.untrustedFormats == [.jpeg, .png])
        #expect(fixture.decoder.previewOptions.first?.allowsTruncatedData == true)
        fixture.loader.gate.open()
        #expect(try await task.response.image.width == 8)
    }
}
