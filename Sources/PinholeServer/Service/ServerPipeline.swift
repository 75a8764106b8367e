import Foundation
public import Pinhole
import PinholeCurl
import PinholeVips

/// The pipeline `pinhole serve` runs on: libvips confined to the untrusted formats, libcurl with every
/// connection's address checked, the configured limits, memory and disk caches.
public enum ServerPipeline {
    /// - Parameters:
    ///   - admission: when given, every decode first reserves its estimated memory there
    ///     (``MemoryAdmittedDecoder``); `nil` by default.
    ///   - onDiagnostic: where the pipeline's diagnostics go (an unusable cache directory, …).
    public static func make(
        _ configuration: ServerConfiguration, admission: AdmissionController? = nil,
        onDiagnostic: (@Sendable (String) -> Void)? = nil
    ) -> ImagePipeline {
        var http = HTTPDataLoader.Configuration()
        http.maxResponseBytes = configuration.maxSourceBytes
        http.maxConnectionsPerHost = 16
        var publicOnly = http
        publicOnly.connectionPolicy = connectionPolicy(allowing: [])
        var allowed = http
        allowed.connectionPolicy = connectionPolicy(allowing: configuration.allowedSources)
        let loader = SourceRoutingLoader(
            prefixes: configuration.allowedSources, allowed: HTTPDataLoader(configuration: allowed),
            publicOnly: HTTPDataLoader(configuration: publicOnly))
        let vips = VipsDecoder(pool: workerPool)
        let decoder = FormatConfinedDecoder(admission.map { MemoryAdmittedDecoder(vips, admission: $0) } ?? vips)
        var pipeline = ImagePipeline.Configuration(decoder: decoder, dataLoader: loader, encoder: VipsEncoder())
        pipeline.maxPixelCount = configuration.maxSourcePixels
        pipeline.maxFrameCount = SourcePolicy.untrustedMaxFrameCount
        pipeline.processingConcurrencyLimit = max(1, configuration.concurrency)
        pipeline.networkConcurrencyLimit = 32
        // As many as libcurl's connections to one host: a stalling origin holds half the slots, never all.
        pipeline.networkConcurrencyLimitPerHost = http.maxConnectionsPerHost
        // Decoded animation frames come out of the image cache's share (an eighth of it): an animated answer
        // decodes its frames outside them, so they hold only each animation's first run.
        let frameBudget = configuration.memoryShares.imageCache / 8
        pipeline.animationFrameBudget = frameBudget
        // Past the answer's limits an animated request is a still: the pipeline decodes no frame beyond the first.
        pipeline.maxPlayedFrameCount = configuration.maxAnimationFrames
        pipeline.maxPlayedPixelCount = configuration.animationPixelLimit
        pipeline.memoryCache = MemoryCache(
            configuration: .init(costLimit: configuration.memoryShares.imageCache - frameBudget))
        pipeline.diskCacheDirectory = configuration.cacheDirectory
        pipeline.diskCacheSizeLimit = configuration.cacheSizeLimit
        pipeline.diskCachePolicy = .storeAll
        pipeline.onDiagnostic = onDiagnostic
        // Per-request stage times for /metrics (`pinhole_stage_seconds`): a few clock reads per answer made.
        pipeline.collectsTaskMetrics = true
        return ImagePipeline(configuration: pipeline)
    }

    /// The threads that decode and encode for the server: one per core, 5 nicer than the rest of the process, so
    /// that libmicrohttpd's threads get a core first and a refusal or a cached answer does not wait behind a
    /// decode.
    public static let workerPool = WorkerThreadPool(name: "pinhole-serve", niceness: 5)

    /// Refuses a connection to a non-public address unless the URL it is opened for (the source or a redirect
    /// target) is on the origin (scheme, host, port) of one of `prefixes`.
    static func connectionPolicy(
        allowing prefixes: [SourcePrefix]
    ) -> @Sendable (IPAddress, URL) throws -> Void {
        let publicOnly = UntrustedSourceGuard(allowedFileRoot: nil)
        return { address, url in
            if prefixes.contains(where: { $0.isSameOrigin(as: url) }) { return }
            try publicOnly.checkConnection(to: address, for: url)
        }
    }
}
