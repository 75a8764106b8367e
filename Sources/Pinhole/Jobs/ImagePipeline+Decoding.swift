import Foundation
import PinholeShared

extension ImagePipeline {
    /// The options of every decode of `request`'s bytes, final or preview: its thumbnail, the pixel and frame
    /// limits, and under an untrusted policy the formats it allows.
    func decodingOptions(for request: ImageRequest, allowsTruncatedData: Bool = false) -> DecodingOptions {
        DecodingOptions(
            thumbnail: request.thumbnail,
            maxPixelCount: configuration.maxPixelCount,
            maxFrameCount: configuration.maxFrameCount,
            allowsTruncatedData: allowsTruncatedData,
            untrustedFormats: configuration.sourcePolicy.isUntrusted ? configuration.untrustedFormats : nil
        )
    }

    /// Decodes `data` as `request` asks, under the CPU limit (``processingQueue``) at the job's priority; counts
    /// decodes, their time and their failures.
    func decodeUnderLimit(_ data: Data, for request: ImageRequest, context: JobContext) async throws -> DecodedImage {
        try await decodeUnderLimit(
            data, options: decodingOptions(for: request), priority: { context.priority }, metrics: context,
            observe: { token in
                context.observePriority { [processingQueue] in
                    processingQueue.updatePriority(token, from: { context.priority })
                }
            })
    }

    /// Decodes `data` with `options` under the CPU limit; `observe` is given the queue token before the wait.
    /// `countsAsDecode: false` (an encoded thumbnail read back, a check before storing) leaves
    /// ``PipelineMetrics/decodes`` alone: it counts full decodes of sources. `metrics` (a job's context) records
    /// the wait for a CPU slot and the decode, when it collects metrics.
    func decodeUnderLimit(
        _ data: Data, options: DecodingOptions, priority: @escaping @Sendable () -> Priority,
        countsAsDecode: Bool = true, metrics: JobContext? = nil, observe: (UInt64) -> Void = { _ in }
    ) async throws -> DecodedImage {
        let token = UniqueID.next()
        observe(token)
        let queued = metrics?.metricsClock()
        return try await processingQueue.run(token: token, priority: priority) {
            try Task.checkCancellation()
            let start = ContinuousClock.now
            if let queued { metrics?.record(.decodeQueueWait, start - queued) }
            do {
                let decoded = try await configuration.decoder.decode(data, options: options)
                let elapsed = ContinuousClock.now - start
                metrics?.record(.decode, elapsed)
                guard countsAsDecode else { return decoded }
                recorder.record {
                    $0.decodes += 1
                    $0.decodeSeconds +=
                        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                }
                return decoded
            } catch {
                if countsAsDecode, !(error is CancellationError) { recorder.record { $0.decodeFailures += 1 } }
                throw error
            }
        }
    }

    /// Whether `error` says the bytes themselves are bad (not an image, cut short, corrupt): bytes that must not
    /// stay in, or enter, the disk cache. Limits, time-outs and formats the policy refuses say nothing of that.
    static func meansUndecodable(_ error: PinholeError) -> Bool {
        switch error.code {
        case .emptyData, .notAnImage, .truncated, .decodingFailed: true
        default: false
        }
    }
}
