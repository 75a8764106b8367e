import Foundation

extension ImagePipeline {
    /// Whether `request`'s result goes to (and comes from) the disk cache encoded. Never for an
    /// ``ImageRequest/Options/animated`` request: a stored thumbnail is a still, and an animation is decoded from
    /// its original bytes.
    func storesEncodedImages(for request: ImageRequest) -> Bool {
        !request.options.contains(.animated) && configuration.diskCachePolicy.storesEncodedImages(for: request)
            && request.usesDiskCacheForData
    }

    /// The image job's answer from an encoded image in the disk cache, or `nil` (then the job loads and decodes).
    ///
    /// The entry must answer without the origin (``DiskCache/Metadata/mayAnswer(now:offline:)``, with the
    /// original's HTTP freshness: ``DiskCacheFreshness``). The small stored
    /// image is decoded at full size; that is a ``PipelineMetrics/thumbnailDiskHits``, not a
    /// ``PipelineMetrics/decodes``. An entry that does not parse or decode is removed and reads as a miss.
    func encodedImageHit(
        for request: ImageRequest, key: ImageJobKey, context: JobContext
    ) async throws -> LoadedImage? {
        guard storesEncodedImages(for: request), key.data.readsDiskCache, let disk = await lazyDiskCache.cache()
        else { return nil }
        let diskKey = EncodedImageEntry.diskKey(for: key.image)
        let lookupStart = context.metricsClock()
        let found = await disk.entry(for: diskKey)
        context.record(.thumbnailDiskLookup, since: lookupStart)
        guard let entry = found,
            entry.metadata.mayAnswer(now: Date(), offline: !key.data.loadsFromSource),
            entry.metadata.matches(requestHeaders: request.headers)
        else { return nil }
        try Task.checkCancellation()
        guard let stored = EncodedImageEntry(decoding: entry.data) else {
            await disk.removeEntry(for: diskKey)
            return nil
        }
        let decoded: DecodedImage
        do {
            // Under the CPU limit like every decode, at the request's priority.
            decoded = try await decodeUnderLimit(
                stored.image, options: DecodingOptions(maxPixelCount: configuration.maxPixelCount),
                priority: { request.priority }, countsAsDecode: false, metrics: context)
        } catch let error as PinholeError {
            configuration.onDiagnostic?("disk cache: dropped an encoded image that does not decode: \(error)")
            await disk.removeEntry(for: diskKey)
            return nil
        }
        let result = DecodedImage(image: decoded.image, info: stored.info)
        recorder.record { $0.thumbnailDiskHits += 1 }
        context.recordSource(.thumbnailDiskCache)
        if key.writesMemoryCache { storeInMemory(result, for: key.image, freshUntil: entry.metadata.expiresAt) }
        return LoadedImage(decoded: result, source: .diskCache)
    }

    /// Stores `decoded` (the processed result) encoded, with the freshness of the original it was made from:
    /// PNG when it has alpha, else JPEG at quality 90. Only when the policy and the key allow a write, an
    /// encoder is configured, and HTTP allowed storing the original's response (a `no-store` response leaves no
    /// thumbnail behind either). Failures are reported through ``Configuration/onDiagnostic`` (once
    /// per kind) and dropped.
    func storeEncodedImage(
        _ decoded: DecodedImage, for request: ImageRequest, key: ImageJobKey, from loaded: LoadedData,
        context: JobContext
    ) async {
        guard storesEncodedImages(for: request), key.data.writesDiskCache, let encoder = configuration.encoder,
            let metadata = loaded.pendingDiskEntry ?? loaded.cachedMetadata, let disk = await lazyDiskCache.cache()
        else { return }
        let options =
            decoded.image.hasAlpha ? EncodingOptions(format: .png) : EncodingOptions(format: .jpeg, quality: 90)
        do {
            let encodeStart = context.metricsClock()
            let image = try await encoder.encode(decoded.image, options: options)
            context.record(.encode, since: encodeStart)
            let payload = try EncodedImageEntry(info: decoded.info, image: image).encoded()
            let storeStart = context.metricsClock()
            try await disk.store(payload, metadata: metadata, for: EncodedImageEntry.diskKey(for: key.image))
            context.record(.store, since: storeStart)
            recorder.record { $0.thumbnailDiskWrites += 1 }
            lazyDiskCache.storeFailures.storeSucceeded()
        } catch is CancellationError {
            return
        } catch {
            lazyDiskCache.storeFailures.storeFailed("the encoded image of \(key.image)", error)
        }
    }
}
