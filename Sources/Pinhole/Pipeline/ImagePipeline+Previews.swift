import Foundation

extension ImagePipeline {
    /// Sets the loader callbacks of a data job's request: progress for every waiting ``ImageTask``, and partial
    /// bytes for progressive previews when the starting request or a waiting task asked for them.
    func observeLoading(_ dataRequest: inout DataRequest, key: DataJobKey, request: ImageRequest) {
        let observers = loadObservers
        dataRequest.onProgress = { received, expected in
            let progress = ImageTask.Progress(receivedBytes: received, expectedBytes: expected)
            for task in observers.tasks(for: key) { task.receive(progress) }
        }
        guard request.options.contains(.progressivePreviews) || observers.wantPreviews(key) else { return }
        let maker = PreviewMaker(pipeline: self, key: key)
        dataRequest.onPartialData = { data in maker.received(data) }
    }

    /// Decodes `data` (a prefix of a progressive JPEG) once per distinct request among the tasks that want
    /// previews, at that request's size and with its processors, and hands each preview to those tasks.
    /// Previews are never stored in a cache; failures are dropped (the final image is what counts).
    func makePreviews(from data: Data, key: DataJobKey) async {
        let tasks = loadObservers.tasks(for: key).filter { $0.request.options.contains(.progressivePreviews) }
        var byImage: [ImageKey: [ImageTask]] = [:]
        for task in tasks { byImage[task.request.imageKey, default: []].append(task) }
        for group in byImage.values {
            guard let request = group.first?.request else { continue }
            let options = DecodingOptions(
                thumbnail: request.thumbnail, maxPixelCount: configuration.maxPixelCount,
                maxFrameCount: configuration.maxFrameCount, allowsTruncatedData: true)
            guard let decoded = try? await configuration.decoder.decode(data, options: options),
                let processed = try? await processed(decoded, for: request)
            else { continue }
            recorder.record { $0.previews += 1 }
            for task in group {
                task.receive(preview: ImageResponse(
                    image: processed.image, info: processed.info, source: .network, request: task.request))
            }
        }
    }
}

/// Watches one download's bytes and starts a preview decode each time a new scan of a progressive JPEG has
/// arrived, one at a time (a decode still running makes later scans wait for the next chunk). Called on the
/// loader's thread: it only counts markers and starts a task, it never blocks.
final class PreviewMaker: Sendable {
    private struct State {
        var scans = ProgressiveJPEGScans()
        var previewedScans = 0
        var decoding = false
    }

    private let pipeline: ImagePipeline
    private let key: DataJobKey
    private let state = Locked(State())

    init(pipeline: ImagePipeline, key: DataJobKey) {
        self.pipeline = pipeline
        self.key = key
    }

    func received(_ data: Data) {
        let start: Bool = state.withLock { state in
            state.scans.advance(data)
            guard state.scans.isProgressive == true, !state.scans.ended, !state.decoding,
                state.scans.completeScans > state.previewedScans
            else { return false }
            state.decoding = true
            state.previewedScans = state.scans.completeScans
            return true
        }
        guard start else { return }
        let (pipeline, key) = (self.pipeline, self.key)
        Task.detached(priority: .utility) { [self] in
            await pipeline.makePreviews(from: data, key: key)
            state.withLock { $0.decoding = false }
        }
    }
}
