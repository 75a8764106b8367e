import Foundation
import Pinhole
import PinholeVips

extension ThumbnailServer {
    /// The server `pinhole serve` runs, assembled from `configuration` alone: the pipeline (``ServerPipeline``),
    /// admission control by ``ServerConfiguration/admissionLimits``, and the service with the encoded answers'
    /// share of the memory budget (``ServerConfiguration/memoryShares``) and the animation limits
    /// (``ServerConfiguration/animationPixelLimit``: one animated answer at that limit is made at a time).
    ///
    /// - Parameters:
    ///   - log: receives each access-log line.
    ///   - onDiagnostic: receives the pipeline's diagnostics (an unusable cache directory, …); `nil` by default.
    public convenience init(
        configuration: ServerConfiguration, log: @escaping @Sendable (String) -> Void,
        onDiagnostic: (@Sendable (String) -> Void)? = nil
    ) {
        let admission = AdmissionController(limits: configuration.admissionLimits)
        let pipeline = ServerPipeline.make(configuration, admission: admission, onDiagnostic: onDiagnostic)
        var service = ThumbnailService.Configuration(
            pipeline: pipeline, encoder: VipsEncoder(pool: ServerPipeline.workerPool))
        service.encodedCacheCostLimit = configuration.memoryShares.encodedCache
        service.timeout = configuration.timeout
        service.admission = admission
        service.maxAnimationFrames = configuration.maxAnimationFrames
        service.maxAnimationPixels = configuration.animationPixelLimit
        service.animationWrites = AnimationWriteBudget(capacity: configuration.animationPixelLimit)
        self.init(configuration: configuration, service: ThumbnailService(configuration: service), log: log)
    }
}
