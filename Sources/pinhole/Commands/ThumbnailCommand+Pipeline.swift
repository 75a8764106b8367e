import Foundation
import Pinhole
import PinholeCurl
import PinholeGallery

extension ThumbnailCommand {
    /// The pipeline the command loads through: the injected decoder and encoder, HTTP(S) and file loaders, a memory
    /// cache (so a URL repeated in the inputs is decoded once), the disk cache of `--cache-dir` (encoded thumbnails
    /// and originals, ``DiskCachePolicy/storeAll``), and a CPU limit of `--jobs`. Diagnostics (an unusable cache
    /// directory) go to stderr once.
    func makePipeline() -> ImagePipeline {
        ImagePipeline(configuration: pipelineConfiguration())
    }

    /// The configuration of ``makePipeline()``.
    func pipelineConfiguration() -> ImagePipeline.Configuration {
        let loader = SchemeRoutingDataLoader(http: HTTPDataLoader(), file: FileDataLoader(pool: ioPool))
        var pipelineConfiguration = ImagePipeline.Configuration(
            decoder: codecs.decoder, dataLoader: loader, encoder: codecs.encoder)
        pipelineConfiguration.processingConcurrencyLimit = configuration.jobs
        pipelineConfiguration.diskCacheDirectory = configuration.cacheDirectory.map { URL(fileURLWithPath: $0) }
        // Thumbnails go to disk encoded, so a second run decodes nothing while they are fresh; originals go too, so
        // a stale thumbnail is revalidated (a conditional request, 304: no body) and another size needs no download.
        pipelineConfiguration.diskCachePolicy = .storeAll
        // One run is one snapshot of its inputs: a URL repeated in them is the same image throughout the run (as a
        // page shows one image twice), whatever HTTP says of later uses (`no-cache` would download it every time).
        pipelineConfiguration.memoryCacheFollowsHTTPFreshness = false
        if configuration.untrusted {
            pipelineConfiguration.sourcePolicy = .untrusted(
                allowedFileRoot: URL(fileURLWithPath: configuration.allowedRoot))
        }
        // `--jsonl` prints where each input's time went.
        pipelineConfiguration.collectsTaskMetrics = configuration.jsonLines
        pipelineConfiguration.onDiagnostic = { line in
            FileHandle.standardError.write(Data("pinhole: \(line)\n".utf8))
        }
        return pipelineConfiguration
    }

    /// The inputs a JSON Feed names: one per item with an image, in feed order (a URL repeated in the feed is
    /// an input each time; the pipeline downloads it once).
    ///
    /// - Throws: ``FeedError`` for a document that is not a JSON Feed; ``PinholeError`` when it cannot be read.
    func feedInputs(_ feed: String) async throws -> [InputFile] {
        let data: Data
        if InputFile.isRemote(feed), let url = URL(string: feed) {
            var http = HTTPDataLoader.Configuration()
            http.requiresImageContent = false
            http.maxResponseBytes = 20_000_000
            if configuration.untrusted {
                // The feed's host before anything is sent, then every address the loader connects to.
                let sourceGuard = UntrustedSourceGuard(allowedFileRoot: nil)
                try await ioPool.run { try sourceGuard.check(url) }
                http.connectionPolicy = sourceGuard.checkConnection
            }
            data = try await HTTPDataLoader(configuration: http).loadData(for: DataRequest(url: url)).data
        } else {
            let root = configuration.untrusted ? URL(fileURLWithPath: configuration.allowedRoot) : nil
            data = try await ioPool.run {
                try root.map { try UntrustedSourceGuard(allowedFileRoot: $0).check(URL(fileURLWithPath: feed)) }
                return try FileAccess.read(feed)
            }
        }
        let document = try JSONFeed.decode(data)
        return document.items.compactMap { item in
            guard let image = item.image, let scheme = image.scheme?.lowercased(), ["http", "https"].contains(scheme)
            else { return nil }
            return InputFile(url: image)
        }
    }
}
