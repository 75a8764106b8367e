/// What a pipeline's disk cache keeps: the original bytes of a source, the encoded result of a request (its
/// thumbnail after processing), or both.
///
/// Encoded images are keyed by the ``ImageKey`` (source key + thumbnail + processors), encoded by
/// ``ImagePipeline/Configuration/encoder`` (PNG when the image has alpha, else JPEG at quality 90), and kept with
/// the original's HTTP freshness (``DiskCacheFreshness``). A later request for the same image reads and decodes
/// that small file: no download and no full decode (``PipelineMetrics/thumbnailDiskHits``), even after the
/// memory cache is gone.
///
/// An encoded image carries no body to revalidate: once it is stale, a policy that keeps no original
/// (``storeEncodedImages``, and ``automatic`` for thumbnails) downloads the source again in full; ``storeAll``
/// keeps the original too, so a stale entry costs a conditional request (`304 Not Modified`, no body) and a
/// decode. `pinhole thumbnail --cache-dir` uses ``storeAll``.
public enum DiskCachePolicy: Sendable, Hashable, CaseIterable {
    /// Original bytes only (the default): any size of a source can be made again without downloading.
    case storeOriginalData
    /// Encoded results only: each asked size and processing is stored once made; originals are not kept.
    case storeEncodedImages
    /// Both.
    case storeAll
    /// Originals for full-size requests without processors, encoded results for every other request (a
    /// gallery's thumbnails are stored small, and a cold start decodes nothing it has shown before).
    case automatic

    /// Whether the original bytes of `request`'s source are stored.
    func storesOriginalData(for request: ImageRequest) -> Bool {
        switch self {
        case .storeOriginalData, .storeAll: true
        case .storeEncodedImages: false
        case .automatic: request.isFullSizeOriginal
        }
    }

    /// Whether `request`'s result is stored encoded (and looked up before loading).
    func storesEncodedImages(for request: ImageRequest) -> Bool {
        switch self {
        case .storeOriginalData: false
        case .storeEncodedImages, .storeAll: true
        case .automatic: !request.isFullSizeOriginal
        }
    }
}

extension ImageRequest {
    /// A full-size decode with no processors: the original bytes are the smallest faithful copy.
    var isFullSizeOriginal: Bool { thumbnail == nil && processors.isEmpty }
}
