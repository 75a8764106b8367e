import Foundation
import PinholeShared

extension ImagePipeline {
    /// Several thumbnails of one source: the request's image at each of `sizes`, from one load of its bytes.
    ///
    /// Each size is the image ``image(for:)`` gives for `request` with ``ImageRequest/thumbnail`` set to it (the
    /// request's own thumbnail is ignored; its processors run on every size). The request is checked first, as by
    /// ``image(for:)``. Then:
    /// - sizes in the memory cache (exactly, or made from a larger cached size) and, when the
    ///   ``Configuration/diskCachePolicy`` keeps thumbnails, in the disk cache answer from there;
    /// - the others share one load of the bytes (the data job, coalesced with other callers of the source, through
    ///   the disk cache of originals as for one image). The largest is decoded first; each smaller one is resized
    ///   from that decode (``ImageResizing``) when that gives what a decode would and costs less, else decoded on
    ///   its own, concurrently under the CPU limit. A format decoded whole whatever the size (PNG, HEIF, AVIF,
    ///   GIF, TIFF…) is always resized; one the decoder shrinks on load (``ImageResizing/shrinksOnLoad(_:)``:
    ///   JPEG and WebP with libvips) only when the largest decode is a small part of the source (a screen-sized
    ///   thumbnail of a large photo), since a small decode of it costs little. A size of another content mode or crop
    ///   aspect is decoded on its own; so is every size when the decoder is not ``ImageResizing``.
    ///
    /// Every size made is stored as ``image(for:)`` stores it (the memory cache under its own request's key, the
    /// disk cache per the policy), so a later ``image(for:)`` of one of them is a cache hit. Each counts as a
    /// request in ``metrics``; decodes and resizes count in ``PipelineMetrics/decodes`` and
    /// ``PipelineMetrics/memoryResizes``.
    ///
    /// - Parameter sizes: the thumbnails; at least one. A size given twice is made once.
    /// - Returns: one response per size, in the order of `sizes`.
    /// - Throws: ``PinholeError/Code/invalidRequest`` for an empty `sizes`; `CancellationError` when the calling
    ///   task is cancelled (the work for it stops); otherwise the first ``PinholeError`` of any size (the load,
    ///   a decode, a processor), and the other sizes are cancelled: the call gives all sizes or none.
    ///
    /// Thread-safe, from any isolation: decodes and resizes run on the decoder's and
    /// ``Configuration/processingPool``'s threads, never on Swift's cooperative pool.
    public func images(for request: ImageRequest, sizes: [ThumbnailOptions]) async throws -> [ImageResponse] {
        guard !sizes.isEmpty else {
            throw PinholeError(.invalidRequest, "images(for:sizes:) needs at least one size, got none")
        }
        recorder.record { $0.requests += sizes.count }
        try validate(request)
        if request.data == nil { try await checkSource(request.url) }
        var unique: [ThumbnailOptions] = []
        for size in sizes where !unique.contains(size) { unique.append(size) }
        var made: [ThumbnailOptions: ImageResponse] = [:]
        var missing: [ImageRequest] = []
        for size in unique {
            var sized = request
            sized.thumbnail = size
            if let answer = try await answerFromCaches(sized) {
                made[size] = answer
            } else {
                missing.append(sized)
            }
        }
        if !missing.isEmpty {
            for response in try await imagesFromOneLoad(missing, of: request) {
                if let size = response.request.thumbnail { made[size] = response }
            }
        }
        return try sizes.map { size in
            guard let response = made[size] else {
                throw PinholeError(.invalidRequest, "images(for:sizes:) made no image at \(size)")
            }
            return response
        }
    }

    /// `sized`'s image from the memory cache (exactly, or resized from a larger size) or an encoded thumbnail
    /// on disk; `nil` when it must be made.
    private func answerFromCaches(_ sized: ImageRequest) async throws -> ImageResponse? {
        if let cached = memoryCachedImage(for: sized) {
            recorder.record { $0.memoryHits += 1 }
            return cached
        }
        if let resized = try await resizedFromLargerCachedImage(for: sized) { return resized }
        let lookup = JobContext(id: UniqueID.next(), priority: sized.priority)
        defer { lookup.endObserving() }
        guard let stored = try await encodedImageHit(for: sized, key: sized.imageJobKey, context: lookup) else {
            return nil
        }
        return ImageResponse(
            image: stored.decoded.image, info: stored.decoded.info, source: stored.source, request: sized)
    }

    /// The images of `requests` (one source, one size each) from one load of the bytes through the data job of
    /// `request`, by the format's strategy.
    private func imagesFromOneLoad(_ requests: [ImageRequest], of request: ImageRequest) async throws
        -> [ImageResponse]
    {
        let dataKey = request.dataJobKey
        let context = JobContext(id: UniqueID.next(), priority: request.priority)
        // Ended here, as a registry ends its jobs' contexts: a decode's priority observer captures the context, and
        // without this each call's context and the pipeline it reaches would keep one another alive (LeakSanitizer).
        defer { context.endObserving() }
        var loaded = try await dataJobs.value(
            for: dataKey, subscriber: UniqueID.next(), priority: { request.priority },
            work: { [self] dataContext in try await runDataJob(request, key: dataKey, context: dataContext) })
        try Task.checkCancellation()
        if request.options.contains(.reloadIgnoringCachedData), loaded.source == .network {
            // Before any size is stored: a reload's bytes are newer than every other size made before it.
            await removeOlderVariants(of: requests[0].imageKey)
        }
        let plan = sizePlan(for: loaded.data, requests: requests)
        do {
            return try await images(of: requests, plan: plan, from: loaded, context: context)
        } catch let error as PinholeError where loaded.source == .diskCache && Self.meansUndecodable(error) {
            // As for one image: a stored entry that does not decode is removed and fetched anew once.
            loaded = try await refetching(afterUndecodableEntry: error, for: request, key: dataKey, context: context)
            return try await images(
                of: requests, plan: sizePlan(for: loaded.data, requests: requests), from: loaded,
                context: context)
        }
    }
}
