import Pinhole

extension ThumbnailReport {
    /// Where one input's time went (the pipeline's ``Pinhole/ImageTaskMetrics``), printed per line by `--jsonl`.
    /// Durations are in seconds; a stage that did not run is absent.
    struct TaskMetrics: Codable, Sendable, Equatable {
        /// ``Pinhole/ImageTaskMetrics/Source`` (`network`, `file`, `memoryCache`, `thumbnailDiskCache`, …);
        /// absent for a failure.
        var source: String?
        /// Whether the input joined a load and decode another input had started (same source and size).
        var joined: Bool
        /// From the request to its answer or failure.
        var totalSeconds: Double
        /// Each stage that ran, by ``Pinhole/ImageTaskMetrics/Stage`` name (`decode`, `network_queue_wait`, …).
        var stageSeconds: [String: Double]
        /// Body bytes the loader received; absent when nothing was loaded.
        var bytesReceived: Int?
        /// Request bytes sent (headers and body); absent when nothing was sent (files, caches).
        var bytesSent: Int?
        /// Redirects followed; absent when nothing was loaded.
        var redirects: Int?

        init(_ metrics: ImageTaskMetrics) {
            source = metrics.source?.rawValue
            joined = metrics.joinedExistingJob
            totalSeconds = metrics.total / .seconds(1)
            stageSeconds = Dictionary(
                uniqueKeysWithValues: metrics.stages.map { ($0.key.rawValue, $0.value / .seconds(1)) })
            bytesReceived = metrics.transfer?.bytesReceived
            bytesSent = metrics.transfer?.bytesSent
            redirects = metrics.transfer?.redirectCount
        }
    }
}
