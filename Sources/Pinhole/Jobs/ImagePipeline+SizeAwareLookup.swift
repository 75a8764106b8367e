import Foundation

extension ImagePipeline {
    /// The size-aware memory lookup: `request`'s thumbnail made from a larger memory-cached image of the same
    /// source (and no processors) by shrinking it on ``Configuration/processingPool``; `nil` when there is none
    /// or the decoder cannot resize (``ImageResizing``).
    ///
    /// A cached image serves when shrinking it gives what a decode would: the full-size image serves any
    /// thumbnail; a fit or fill (without crop) serves the same mode at a smaller size; a fill with a crop serves
    /// the same crop at a smaller box of the same aspect ratio. Never enlarges, and never from an image that was
    /// itself enlarged. The result is stored in the memory cache under the request's key, until the larger image
    /// expires.
    func resizedFromLargerCachedImage(for request: ImageRequest) async throws -> ImageResponse? {
        // An animation's frames are not made by shrinking a larger one's first frame.
        guard let asked = request.thumbnail, request.processors.isEmpty, !request.options.contains(.animated),
            let memoryCache = configuration.memoryCache,
            !request.options.contains(.disableMemoryCacheReads), !request.options.contains(.reloadIgnoringCachedData)
        else { return nil }
        let key = request.imageKey
        let candidates = (memoryVariants[Self.variantGroup(key)] ?? []).filter { $0 != asked }
        guard !candidates.isEmpty, let resizer = configuration.decoder as? any ImageResizing else { return nil }
        var best: (decoded: DecodedImage, layout: ThumbnailOptions.Layout, key: ImageKey)?
        for candidate in candidates {
            let candidateKey = ImageKey(sourceKey: key.sourceKey, thumbnail: candidate, processing: key.processing)
            guard let cached = memoryCache[candidateKey],
                let layout = Self.shrinkLayout(from: candidate, cached: cached, to: asked),
                best.map({ cached.image.cost < $0.decoded.image.cost }) ?? true
            else { continue }
            best = (cached, layout, candidateKey)
        }
        guard let best else { return nil }
        let source = best.decoded
        let image = try await configuration.processingPool.run { try resizer.resize(source.image, to: best.layout) }
        try Task.checkCancellation()
        let decoded = DecodedImage(image: image, info: source.info)
        recorder.record { $0.memoryResizes += 1 }
        // A copy of the larger image: it leaves the memory cache when that one does.
        if request.cacheAccess.writesMemoryCache {
            storeInMemory(decoded, for: key, ttl: memoryCache.remainingTTL(for: best.key))
        }
        return ImageResponse(image: image, info: source.info, source: .memoryCache, request: request)
    }

    /// How to shrink `cached` (made with `candidate`) into what `asked` gives for the same source, or `nil` when
    /// it cannot be done faithfully.
    static func shrinkLayout(
        from candidate: ThumbnailOptions?, cached: DecodedImage, to asked: ThumbnailOptions
    ) -> ThumbnailOptions.Layout? {
        let source = cached.info
        let target = asked.layout(width: source.width, height: source.height)
        let have = PixelSize(width: cached.image.width, height: cached.image.height)
        func fitsInside(_ size: PixelSize) -> Bool { size.width <= have.width && size.height <= have.height }
        guard let candidate else {
            // The full-size image: exactly the decode's geometry.
            guard have == PixelSize(width: source.width, height: source.height), fitsInside(target.resized) else {
                return nil
            }
            return target
        }
        // Never from an image that was enlarged past its source.
        guard have.width <= source.width, have.height <= source.height, candidate.contentMode == asked.contentMode
        else { return nil }
        switch asked.contentMode {
        case .aspectFit, .aspectFill:
            guard fitsInside(target.resized) else { return nil }
            return ThumbnailOptions.Layout(resized: target.resized, output: target.resized, crop: nil)
        case .fill:
            // Exact, for any sides (a product of two sides can overflow Int).
            let sameAspect =
                candidate.size.width.multipliedFullWidth(by: asked.size.height)
                == candidate.size.height.multipliedFullWidth(by: asked.size.width)
            guard sameAspect, fitsInside(target.output) else { return nil }
            return ThumbnailOptions.Layout(resized: target.output, output: target.output, crop: nil)
        }
    }
}
