import Foundation

extension ImagePipeline {
    /// The configuration to run with under `configuration.sourcePolicy`, and the guard that checks each URL.
    ///
    /// Untrusted: pixel and frame limits are clamped to the ``SourcePolicy`` maxima, and the loader is the one
    /// ``DataLoading/restricted(by:)`` returns: the built-in loaders check every address connected to (first hop
    /// and each redirect) when its socket is opened, and clamp their byte limits; a custom loader is used as given.
    static func applyingSourcePolicy(to configuration: Configuration) -> (Configuration, UntrustedSourceGuard?) {
        guard case .untrusted(let root) = configuration.sourcePolicy else { return (configuration, nil) }
        let sourceGuard = UntrustedSourceGuard(allowedFileRoot: root, resolver: configuration.hostResolver)
        var adjusted = configuration
        adjusted.maxPixelCount = min(configuration.maxPixelCount, SourcePolicy.untrustedMaxPixelCount)
        adjusted.maxFrameCount = min(configuration.maxFrameCount, SourcePolicy.untrustedMaxFrameCount)
        adjusted.dataLoader = configuration.dataLoader.restricted(
            by: SourceRestriction(maxBytes: SourcePolicy.untrustedMaxBytes, allowedFileRoot: root) { address, url in
                try sourceGuard.checkConnection(to: address, for: url)
            })
        return (adjusted, sourceGuard)
    }

    /// Under an untrusted policy, the full check of `url`: a host name's DNS on
    /// ``WorkerThreadPool/hostResolution`` (a cancelled caller leaves at once, the lookup runs out on its thread),
    /// a file's path on ``WorkerThreadPool/io``; nothing blocks when ``isCheckedWithoutResolving(_:)``.
    func checkSource(_ url: URL) async throws {
        guard let sourceGuard else { return }
        try Task.checkCancellation()
        if Self.isCheckedWithoutResolving(url) {
            try sourceGuard.checkWithoutResolving(url)
            return
        }
        if url.isFileURL {
            try await WorkerThreadPool.io.run { try sourceGuard.check(url) }
        } else {
            try await WorkerThreadPool.hostResolution.runAbandoningOnCancel { try sourceGuard.check(url) }
        }
        try Task.checkCancellation()
    }

    /// Whether the non-blocking check of `url` is its whole check: an `http(s)` URL whose host is an IP address
    /// (no DNS to ask, no file to resolve).
    static func isCheckedWithoutResolving(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = UntrustedSourceGuard.host(of: url)
        else { return false }
        return IPAddress(host) != nil
    }

    /// Under an untrusted policy, refuses more than ``SourcePolicy/untrustedMaxBytes`` from any loader.
    func checkSize(of data: Data, from url: URL) throws {
        guard sourceGuard != nil, data.count > SourcePolicy.untrustedMaxBytes else { return }
        throw PinholeError(
            .dataTooLarge,
            "\(url.absoluteString): \(data.count) bytes, over the \(SourcePolicy.untrustedMaxBytes)-byte limit")
    }
}
