import Foundation
import PinholeShared

extension ImagePipeline {
    /// Whether previews (made of progressive JPEGs only) may be decoded: not under an untrusted policy that
    /// refuses JPEG.
    var allowsPreviews: Bool {
        !configuration.sourcePolicy.isUntrusted || configuration.untrustedFormats.contains(.jpeg)
    }

    /// Sets the loader callbacks of a data job's request: progress for every waiting ``ImageTask``, and partial
    /// bytes for progressive previews when the starting request or a waiting task asked for them (and the policy
    /// allows them).
    ///
    /// - Returns: the download's preview maker; the data job calls ``PreviewMaker/stop()`` when the download ends.
    func observeLoading(
        _ dataRequest: inout DataRequest, key: DataJobKey, request: ImageRequest, context: JobContext
    ) -> PreviewMaker? {
        let observers = loadObservers
        dataRequest.onProgress = { received, expected in
            let progress = ImageTask.Progress(receivedBytes: received, expectedBytes: expected)
            for task in observers.tasks(for: key) { task.receive(progress) }
        }
        guard allowsPreviews, request.options.contains(.progressivePreviews) || observers.wantPreviews(key) else {
            return nil
        }
        let maker = PreviewMaker(pipeline: self, key: key, context: context)
        observers.register(maker, for: key)
        dataRequest.onPartialData = { data in maker.received(data) }
        return maker
    }

    /// Decodes `data` (a prefix of a progressive JPEG) once per distinct request among the tasks that want
    /// previews, at that request's size and with its processors, and hands each preview to those tasks.
    ///
    /// Each decode is a final decode's equal but for the truncated data it accepts: the same options (untrusted
    /// formats included), a slot of the processing limit at the data job's priority, and cancellation (the
    /// calling task is cancelled when the download ends or no task wants previews any more). Previews are never
    /// stored in a cache; failures are dropped (the final image is what counts).
    func makePreviews(from data: Data, key: DataJobKey, context: JobContext) async {
        let tasks = loadObservers.tasks(for: key).filter { $0.request.options.contains(.progressivePreviews) }
        var byImage: [ImageKey: [ImageTask]] = [:]
        for task in tasks { byImage[task.request.imageKey, default: []].append(task) }
        for group in byImage.values {
            guard !Task.isCancelled else { return }
            guard let request = group.first?.request else { continue }
            let options = decodingOptions(for: request, allowsTruncatedData: true)
            let priority: @Sendable () -> Priority = { context.priority }
            let decoded = try? await processingQueue.run(token: UniqueID.next(), priority: priority) {
                try Task.checkCancellation()
                return try await configuration.decoder.decode(data, options: options)
            }
            guard let decoded, !Task.isCancelled, let processed = try? await processed(decoded, for: request),
                !Task.isCancelled
            else { continue }
            recorder.record { $0.previews += 1 }
            for task in group {
                task.receive(
                    preview: ImageResponse(
                        image: processed.image, info: processed.info, source: .network, request: task.request))
            }
        }
    }
}
