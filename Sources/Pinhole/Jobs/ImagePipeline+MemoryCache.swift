import Foundation

extension ImagePipeline {
    /// The memory cache's image for `request`, or `nil` when there is none or the request's options forbid a
    /// read (``ImageRequest/Options/disableMemoryCacheReads``, ``ImageRequest/Options/reloadIgnoringCachedData``).
    /// Runs no check of the request and counts nothing: callers do both (``cachedImage(for:)``, ``image(for:)``).
    func memoryCachedImage(for request: ImageRequest) -> ImageResponse? {
        guard !request.options.contains(.disableMemoryCacheReads),
            !request.options.contains(.reloadIgnoringCachedData),
            let decoded = configuration.memoryCache?[request.imageKey]
        else { return nil }
        return ImageResponse(
            image: decoded.image, info: decoded.info, source: .memoryCache, request: request,
            animation: decoded.animation)
    }

    /// Stores a processed image made from bytes fresh until `freshUntil` (HTTP's freshness, `nil` when it says
    /// nothing) in the memory cache: until then at most, when ``Configuration/memoryCacheFollowsHTTPFreshness``
    /// (not at all when it has passed, and the key's older image goes).
    func storeInMemory(_ decoded: DecodedImage, for key: ImageKey, freshUntil: Date?) {
        let ttl =
            configuration.memoryCacheFollowsHTTPFreshness
            ? freshUntil.map { Duration.seconds($0.timeIntervalSinceNow) } : nil
        storeInMemory(decoded, for: key, ttl: ttl)
    }

    /// Stores a processed image in the memory cache, for at most `ttl` when given
    /// (``MemoryCache/insert(_:for:cost:ttl:)``), and notes its size for the size-aware lookup.
    func storeInMemory(_ decoded: DecodedImage, for key: ImageKey, ttl: Duration? = nil) {
        guard let memoryCache = configuration.memoryCache else { return }
        // An animation found to end early is never kept as the image.
        guard decoded.animation?.isComplete ?? true else { return }
        memoryCache.insert(decoded, for: key, cost: decoded.cost, ttl: ttl)
        let group = Self.variantGroup(key)
        var known = memoryVariants[group] ?? []
        if !known.contains(key.thumbnail) {
            known.append(key.thumbnail)
            memoryVariants.insert(known, for: group, cost: 0)
        }
    }

    /// After a reload made `key`'s image from newer bytes: removes every other size of the same source and
    /// processors this pipeline knows, from memory and their encoded copies from disk, so neither an exact hit, a
    /// stored thumbnail nor the size-aware lookup answers with the older bytes. Sizes stored by an earlier process
    /// and not asked since are not known here (their entries keep their own freshness).
    func removeOlderVariants(of key: ImageKey) async {
        let group = Self.variantGroup(key)
        let older = (memoryVariants[group] ?? []).filter { $0 != key.thumbnail }
        guard !older.isEmpty else { return }
        memoryVariants.insert([key.thumbnail], for: group, cost: 0)
        let keys = older.map {
            ImageKey(sourceKey: key.sourceKey, thumbnail: $0, processing: key.processing, isAnimated: key.isAnimated)
        }
        for variant in keys { _ = configuration.memoryCache?.removeValue(for: variant) }
        guard let disk = await lazyDiskCache.cache() else { return }
        for variant in keys { await disk.removeEntry(for: EncodedImageEntry.diskKey(for: variant)) }
    }

    /// The variant index key: the same source and processors.
    static func variantGroup(_ key: ImageKey) -> String {
        key.sourceKey + "\u{0}" + key.processing + (key.isAnimated ? "\u{0}animated" : "")
    }
}
