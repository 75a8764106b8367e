import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Synchronization
import Testing

/// Progressive previews: real progressive JPEG bytes delivered in chunks by a streaming loader, real libvips.
@Suite(.timeLimit(scaledMinutes: 2))
struct ProgressivePreviewTests {
    /// A one-shot signal a loader can wait on (bounded), that a test raises.
    final class Signal: Sendable {
        private let raised = Atomic<Bool>(false)
        func raise() { raised.store(true, ordering: .releasing) }
        /// Waits until raised, for at most `timeout`.
        func wait(timeout: Duration = .seconds(20)) async {
            let deadline = ContinuousClock.now + timeout
            while !raised.load(ordering: .acquiring), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// Serves `body` for `stream:` URLs in `chunk`-byte steps, reporting progress and partial data as a network
    /// loader does; after `pauseAfter` bytes it waits for ``resume`` (so a preview can be made before the end).
    final class StreamingLoader: DataLoading {
        let body: Data
        let chunk: Int
        let pauseAfter: Int
        let resume = Signal()
        /// Whether a request asked for partial data (a copy of the bytes so far at each step).
        let partialDataWanted = Atomic<Bool>(false)

        init(body: Data, chunk: Int, pauseAfter: Int) {
            self.body = body
            self.chunk = chunk
            self.pauseAfter = pauseAfter
        }

        func loadData(for request: DataRequest) async throws -> DataResponse {
            if request.onPartialData != nil { partialDataWanted.store(true, ordering: .relaxed) }
            var sent = 0
            var paused = false
            while sent < body.count {
                try Task.checkCancellation()
                sent = min(body.count, sent + chunk)
                request.onProgress?(sent, body.count)
                request.onPartialData?(body.prefix(sent))
                if sent >= pauseAfter, !paused {
                    paused = true
                    await resume.wait()
                }
            }
            return DataResponse(data: body, url: request.url)
        }
    }

    @Test func aProgressiveJPEGShowsAPreviewBeforeItArrivesWhole() async throws {
        // Given a 256×192 progressive JPEG (first scan complete after 1,038 bytes) streamed 512 bytes at a time,
        // held after 2 KiB
        let body = try await Fixture.input("progressive.jpg")
        let loader = StreamingLoader(body: body, chunk: 512, pauseAfter: 2048)
        var configuration = ImagePipeline.Configuration(decoder: VipsDecoder())
        configuration.dataLoaders = ["stream": loader]
        let pipeline = ImagePipeline(configuration: configuration)
        let request = ImageRequest(
            url: URL(string: "stream://photo")!, thumbnail: ThumbnailOptions(maxPixelSize: 128),
            options: [.progressivePreviews])
        // When it is loaded through a task
        let task = pipeline.imageTask(for: request)
        var previews: [ImageResponse] = []
        var final: ImageResponse?
        var progress: [Int] = []
        for await event in task.events {
            switch event {
            case .progress(let step): progress.append(step.receivedBytes)
            case .preview(let preview):
                previews.append(preview)
                loader.resume.raise()
            case .finished(let result): final = try result.get()
            }
        }
        // Then a preview of the asked size came before the whole image, and the progress reached every byte
        let image = try #require(final).image
        let preview = try #require(previews.first).image
        #expect(preview.width == 128 && preview.height == 96 && image.width == 128 && image.height == 96)
        #expect(progress.last == body.count)
        #expect(pipeline.metrics.previews >= 1)
        // And the preview is not the final picture (later scans were missing), and only the final one is cached
        #expect(preview != image)
        #expect(pipeline.cachedImage(for: request)?.image == image)
    }

    @Test func withoutTheOptionThereAreNoPreviewsAndNoPartialCopies() async throws {
        let body = try await Fixture.input("progressive.jpg")
        let loader = StreamingLoader(body: body, chunk: 512, pauseAfter: Int.max)
        var configuration = ImagePipeline.Configuration(decoder: VipsDecoder())
        configuration.dataLoaders = ["stream": loader]
        let pipeline = ImagePipeline(configuration: configuration)
        let task = pipeline.imageTask(for: ImageRequest(url: URL(string: "stream://plain")!, maxPixelSize: 64))
        var previews = 0
        for await event in task.events {
            if case .preview = event { previews += 1 }
        }
        #expect(previews == 0 && pipeline.metrics.previews == 0)
        #expect(loader.partialDataWanted.load(ordering: .relaxed) == false)
        #expect(try await task.response.image.width == 64)
    }
}
