import Foundation
import PinholeShared

/// How ``ImagePipeline/images(for:sizes:)`` makes several sizes of one source from its bytes.
enum SizePlan: Sendable {
    /// One decode per size from the bytes (one size, or a decoder that cannot resize).
    case decodeEach
    /// One decode at the size at `base` first; then each other size is resized from it with `resizer` when that
    /// gives what a decode would (``ImagePipeline/shrinkLayout(from:cached:to:)``) and costs less than a decode of
    /// its own (``ImagePipeline/resizesFromLargest(_:shrinksOnLoad:)``), else decoded on its own.
    case decodeLargest(base: Int, resizer: any ImageResizing, shrinksOnLoad: Bool)
}

extension ImagePipeline {
    /// A format that shrinks on load has a smaller size resized from the largest decode only when that decode
    /// has at most this fraction of the source's pixels. Resizing costs per pixel of the decoded image, a
    /// shrink-on-load decode mostly per pixel of the source (the entropy decode of every block), and a resize
    /// pixel costs a few times a source pixel's decode. The value sits at the crossover measured for baseline
    /// JPEG; WebP's and progressive JPEG's lie above it (BENCHMARKS.md, "Several sizes from one source").
    static let resizeFromLargestPixelFraction = 1.0 / 5

    /// The plan for `requests` (one source, one thumbnail each) from `data`, per the sniffed format and what the
    /// decoder says of it (``ImageResizing/shrinksOnLoad(_:)``).
    func sizePlan(for data: Data, requests: [ImageRequest]) -> SizePlan {
        guard requests.count > 1, let resizer = configuration.decoder as? any ImageResizing else { return .decodeEach }
        let format: ImageFormat? = if case .image(let format) = ImageFormat.sniff(data) { format } else { nil }
        // The largest box: the one whose decode the others can most often be resized from.
        func area(_ index: Int) -> Double {
            let size = requests[index].thumbnail?.size ?? PixelSize(width: 0, height: 0)
            return Double(size.width) * Double(size.height)
        }
        let base = requests.indices.max { area($0) < area($1) } ?? 0
        return .decodeLargest(base: base, resizer: resizer, shrinksOnLoad: format.map(resizer.shrinksOnLoad) ?? false)
    }

    /// Whether a smaller size is cheaper resized from `largest` than decoded on its own: always for a format
    /// decoded whole whatever the size; for one that shrinks on load, when `largest` is a small part of the
    /// source (``resizeFromLargestPixelFraction``).
    static func resizesFromLargest(_ largest: DecodedImage, shrinksOnLoad: Bool) -> Bool {
        guard shrinksOnLoad else { return true }
        let decodedPixels = Double(largest.image.width) * Double(largest.image.height)
        let sourcePixels = Double(largest.info.width) * Double(largest.info.height)
        return decodedPixels <= sourcePixels * resizeFromLargestPixelFraction
    }

    /// The images of `requests` from `loaded` by `plan`, concurrently; the first error cancels the others.
    func images(
        of requests: [ImageRequest], plan: SizePlan, from loaded: LoadedData, context: JobContext
    ) async throws -> [ImageResponse] {
        let decodeOwn: @Sendable (ImageRequest, JobContext) async throws -> DecodedImage = { [self] sized, context in
            try await decodeUnderLimit(loaded.data, for: sized, context: context)
        }
        guard case .decodeLargest(let base, let resizer, let shrinksOnLoad) = plan else {
            return try await concurrently(requests) { [self] sized in
                try await sizedImage(sized, from: loaded) { context in try await decodeOwn(sized, context) }
            }
        }
        let baseRequest = requests[base]
        let decoded = try await decodeUnderLimit(loaded.data, for: baseRequest, context: context)
        try Task.checkCancellation()
        let resizes = Self.resizesFromLargest(decoded, shrinksOnLoad: shrinksOnLoad)
        return try await concurrently(requests) { [self] sized in
            try await sizedImage(sized, from: loaded) { [self] context in
                guard sized.thumbnail != baseRequest.thumbnail else { return decoded }
                guard resizes, let asked = sized.thumbnail,
                    let layout = Self.shrinkLayout(from: baseRequest.thumbnail, cached: decoded, to: asked)
                else { return try await decodeOwn(sized, context) }
                let image = try await configuration.processingPool.run { try resizer.resize(decoded.image, to: layout) }
                recorder.record { $0.memoryResizes += 1 }
                return DecodedImage(image: image, info: decoded.info)
            }
        }
    }

    /// `sized`'s image through its image job (joined when one runs for it): `make` gives the unprocessed pixels,
    /// then the request's processors run and the result is stored as the image job stores it (the original on
    /// disk once, the encoded thumbnail, the memory cache).
    private func sizedImage(
        _ sized: ImageRequest, from loaded: LoadedData,
        make: @escaping @Sendable (JobContext) async throws -> DecodedImage
    ) async throws -> ImageResponse {
        let key = sized.imageJobKey
        let result = try await imageJobs.value(
            for: key, subscriber: UniqueID.next(), priority: { sized.priority },
            work: { [self] context in
                try await sizedJob(sized, key: key, from: loaded, context: context, make: { try await make(context) })
            })
        return ImageResponse(
            image: result.decoded.image, info: result.decoded.info, source: result.source, request: sized)
    }

    /// The work of `sized`'s image job: `make`, the processors, then the stores.
    private func sizedJob(
        _ sized: ImageRequest, key: ImageJobKey, from loaded: LoadedData, context: JobContext,
        make: () async throws -> DecodedImage
    ) async throws -> LoadedImage {
        let unprocessed = try await make()
        try Task.checkCancellation()
        let result = try await processed(unprocessed, for: sized)
        // Only bytes that decoded are worth keeping, once, whichever size decoded first.
        if let metadata = loaded.pendingDiskEntry, configuration.diskCachePolicy.storesOriginalData(for: sized),
            loaded.claimDiskStore()
        {
            await storeDownload(loaded, metadata: metadata, for: key.data.sourceKey)
        }
        await storeEncodedImage(result, for: sized, key: key, from: loaded, context: context)
        if key.writesMemoryCache { storeInMemory(result, for: key.image, freshUntil: loaded.freshUntil) }
        return LoadedImage(decoded: result, source: loaded.source)
    }

    /// `body` of each of `requests` in a task group, in their order; the first error cancels the rest.
    private func concurrently(
        _ requests: [ImageRequest], _ body: @escaping @Sendable (ImageRequest) async throws -> ImageResponse
    ) async throws -> [ImageResponse] {
        try await withThrowingTaskGroup(of: (Int, ImageResponse).self) { group in
            for (index, sized) in requests.enumerated() {
                group.addTask { (index, try await body(sized)) }
            }
            var responses = [ImageResponse?](repeating: nil, count: requests.count)
            for try await (index, response) in group { responses[index] = response }
            return responses.compactMap { $0 }
        }
    }
}
