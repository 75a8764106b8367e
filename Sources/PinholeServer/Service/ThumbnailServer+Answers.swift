import Foundation
import Pinhole
import PinholeShared
import PinholeVips

extension ThumbnailServer {
    /// The processing URL of `path`, its signature checked.
    ///
    /// - Throws: ``ProcessingURLError``: `not_found` for a path of one segment, the parser's errors,
    ///   `invalid_signature` when the signature does not match and unsigned URLs are not allowed.
    func checkedURL(_ path: Substring) throws(ProcessingURLError) -> ProcessingURL {
        guard path.dropFirst().contains("/") else { throw ProcessingURLError("not_found", "no such path") }
        let url = try ProcessingURL.parse(path)
        if configuration.allowsUnsigned { return url }
        guard let signer = configuration.signer, signer.isValid(signature: url.signature, for: url.signedPath) else {
            throw ProcessingURLError("invalid_signature", "the URL's signature does not match")
        }
        return url
    }

    /// 200 with the image, or 304 when the request's validators match.
    func answer(_ image: EncodedThumbnail, for request: ServerRequest, negotiated: Bool, servedFrom: String)
        -> ServerResponse
    {
        var headers: [(name: String, value: String)] = [
            // An animation cut short is the whole frames of a source that may be whole later: never stored.
            ("Cache-Control", image.isComplete ? "public, max-age=\(configuration.maxAge)" : "no-store"),
            ("ETag", image.etag),
            ("Last-Modified", HTTPDate.format(image.lastModified)),
        ]
        if negotiated { headers.append(("Vary", "Accept")) }
        if isDraining { headers.append(("Connection", "close")) }
        if notModified(image, request: request) {
            return ServerResponse(status: 304, headers: headers, servedFrom: servedFrom)
        }
        headers.insert(("Content-Type", image.format.mediaType), at: 0)
        headers.append(("X-Content-Type-Options", "nosniff"))
        return ServerResponse(status: 200, headers: headers, body: image.body, servedFrom: servedFrom)
    }

    /// RFC 9110 §13.2.2: `If-None-Match` decides when present; otherwise `If-Modified-Since` at or after the
    /// answer's `Last-Modified`.
    func notModified(_ image: EncodedThumbnail, request: ServerRequest) -> Bool {
        if let tags = request.headers["if-none-match"] { return EntityTag.ifNoneMatch(tags, matches: image.etag) }
        guard let since = request.headers["if-modified-since"], let date = HTTPDate.parse(since) else { return false }
        return image.lastModified <= date
    }

    func health() -> ServerResponse {
        let draining = isDraining
        let body = Data((draining ? #"{"status":"draining"}"# : #"{"status":"ok"}"#).utf8)
        return ServerResponse(
            status: draining ? 503 : 200,
            headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: body)
    }

    func metricsResponse() -> ServerResponse {
        let pipeline = service.configuration.pipeline
        let counts = pipeline.metrics
        let memoryInUse = (pipeline.configuration.memoryCache?.totalCost ?? 0) + service.encodedCacheBytes
        let snapshot = ServerMetrics.Snapshot(
            inFlight: workingCount, coalescedJoins: service.coalescedJoins + counts.coalescedJoins,
            cacheHits: [
                ("encoded_memory", service.encodedHits), ("image_memory", counts.memoryHits),
                ("thumbnail_disk", counts.thumbnailDiskHits), ("source_disk", counts.diskHits),
                ("source_unstored_download", counts.downloadsReused),
                ("failure", counts.failureHits),
            ],
            decodes: counts.decodes, encodes: service.encodes, bytesReceived: counts.bytesReceived,
            memoryBudgetBytes: configuration.memoryBudget, memoryInUseBytes: memoryInUse, draining: isDraining,
            memoryTrims: memoryTrimmer.trimCount, residentBytes: ProcessStats.residentBytes(),
            allocator: MallocTuning.figures,
            admission: service.configuration.admission.map { ($0.snapshot, $0.limits) }, stages: service.stageTimes)
        return ServerResponse(
            status: 200,
            headers: [("Content-Type", "text/plain; version=0.0.4"), ("Cache-Control", "no-store")],
            body: Data(metrics.render(snapshot).utf8))
    }
}
