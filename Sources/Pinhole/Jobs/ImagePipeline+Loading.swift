import Foundation
import PinholeShared

extension ImagePipeline {
    /// Schemes the default loaders handle (`http`, `https`, `file`) plus `data`.
    static let builtInSchemes: Set<String> = ["http", "https", "file", "data"]

    /// The loader for `url`: ``Configuration/dataLoaders`` by scheme, then the built-in `data:` loader, then
    /// ``Configuration/dataLoader``.
    func loader(for url: URL) -> any DataLoading {
        let scheme = url.scheme?.lowercased() ?? ""
        if let custom = configuration.dataLoaders[scheme] { return custom }
        if scheme == "data" { return DataURLLoader() }
        return configuration.dataLoader
    }

    /// Whether some loader takes `url`'s scheme.
    func supportsScheme(of url: URL) -> Bool {
        let scheme = url.scheme?.lowercased() ?? ""
        return Self.builtInSchemes.contains(scheme) || configuration.dataLoaders[scheme] != nil
    }

    /// The ``DataRequest`` a data job sends: the URL, validators of a cached copy, and the request's own
    /// headers and timeout.
    static func dataRequest(for request: ImageRequest, cached: DiskCache.Entry?) -> DataRequest {
        DataRequest(
            url: request.url, ifNoneMatch: cached?.metadata.etag, ifModifiedSince: cached?.metadata.lastModified,
            headers: request.headers, timeout: request.timeout)
    }

    /// `request`'s bytes from its loader, under the network limit at the job's priority: a conditional request
    /// when `cached` has validators, with the loading callbacks set (progress, previews).
    func load(
        _ request: ImageRequest, key: DataJobKey, cached: DiskCache.Entry?, context: JobContext
    ) async throws -> DataResponse {
        var dataRequest = Self.dataRequest(for: request, cached: cached)
        let previews = observeLoading(&dataRequest, key: key, request: request, context: context)
        let token = UniqueID.next()
        context.observePriority { [networkQueue] in networkQueue.updatePriority(token, from: { context.priority }) }
        // However the download ends, the preview decode still running for it is cancelled.
        defer { previews?.stop() }
        let priority: @Sendable () -> Priority = { context.priority }
        let queued = context.metricsClock()
        return try await networkQueue.run(token: token, priority: priority, group: Self.origin(of: request.url)) {
            let loadStart = context.metricsClock()
            if let queued, let loadStart { context.record(.networkQueueWait, loadStart - queued) }
            let response = try await download(dataRequest)
            context.record(.load, since: loadStart)
            context.recordTransfer(response.metrics)
            return response
        }
    }

    /// The group of `url` in the network queue: `scheme://host:port` for HTTP(S) (lowercased, without the
    /// trailing dots of a fully-qualified name, an IP address in its canonical form, the port spelled out), `nil`
    /// for other schemes (files and custom loaders are not limited by host).
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased()
        else { return nil }
        return "\(scheme)://\(canonicalHost(host)):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// `host` as the resolver reaches it: `Example.com.` is `example.com`, `[0:0::1]` is `::1`, `127.1` is
    /// `127.0.0.1` (the forms `inet_aton` accepts, as getaddrinfo and libcurl do).
    static func canonicalHost(_ host: String) -> String {
        var name = Substring(host)
        while name.count > 1, name.hasSuffix(".") { name = name.dropLast() }
        let bare = name.hasPrefix("[") && name.hasSuffix("]") ? String(name.dropFirst().dropLast()) : String(name)
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1, inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count)) != nil {
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        var v4 = in_addr()
        if bare.first?.isNumber == true, inet_aton(bare, &v4) != 0,
            inet_ntop(AF_INET, &v4, &text, socklen_t(text.count)) != nil
        {
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return String(name)
    }

    private func download(_ request: DataRequest) async throws -> DataResponse {
        try Task.checkCancellation()
        recorder.record { $0.downloadsStarted += 1 }
        do {
            let response = try await loader(for: request.url).loadData(for: request)
            recorder.record {
                $0.downloadsCompleted += 1
                $0.bytesReceived += response.data.count
            }
            return response
        } catch is CancellationError {
            recorder.record { $0.downloadsCancelled += 1 }
            throw CancellationError()
        } catch {
            recorder.record { $0.downloadsFailed += 1 }
            throw error
        }
    }

    /// The bytes of a request made from bytes in hand, as a data job's result; `nil` for other requests.
    ///
    /// - Throws: ``PinholeError/Code/emptyData`` or ``PinholeError/Code/notAnImage`` for bytes that are no image.
    func inlineData(of request: ImageRequest) throws -> LoadedData? {
        guard let data = request.data else { return nil }
        if let error = PinholeError.forSniffed(ImageFormat.sniff(data)) { throw error }
        return LoadedData(data: data, source: .providedData, pendingDiskEntry: nil)
    }

    /// The offline answer when nothing cached can serve `request`.
    static func notCached(_ request: ImageRequest) -> PinholeError {
        PinholeError(
            .notCached,
            "\(request.url.absoluteString) is not in the memory or disk cache, and returnCacheDataDontLoad forbids "
                + "loading it"
        )
    }
}
