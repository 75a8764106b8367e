/// Turns one decoded image into another (a crop, a circle, a blur…) after decoding and before caching.
///
/// A request's processors run in order on the decoded thumbnail; the memory cache holds the processed result,
/// keyed by the source, the thumbnail box and every processor's ``identifier``.
///
/// Conformers must:
/// - give an ``identifier`` that names what the processor does *and* its parameters
///   (`"pinhole.gaussianBlur(sigma=8.0)"`): two processors with the same identifier must give the same pixels,
///   since the identifier joins the cache key;
/// - do their work synchronously in ``process(_:)``: Pinhole calls it on a thread of its CPU executor
///   (``WorkerThreadPool/cpu``, through ``ImageProcessors/apply(_:to:on:)``), never on Swift's cooperative pool,
///   so blocking C calls are fine there.
///
/// The built-ins (resize/crop, rounded corners, circle, Gaussian blur, greyscale) are libvips operations in
/// `PinholeVips` (`ImageProcessors.Resize`, `.RoundedCorners`, `.Circle`, `.GaussianBlur`, `.Greyscale`).
public protocol ImageProcessing: Sendable {
    /// Names the operation and its parameters; joins the cache key. Stable across runs (it may be stored with
    /// encoded thumbnails on disk).
    var identifier: String { get }

    /// Processes `image` and returns the result (8-bit sRGB, any ``PixelImage/PixelFormat``).
    ///
    /// Called on a worker thread of the CPU executor; may block.
    /// - Throws: ``PinholeError`` (``PinholeError/Code/processingFailed`` by convention).
    func process(_ image: PixelImage) throws -> PixelImage
}

/// The namespace of image processors; the built-ins live in `PinholeVips`.
public enum ImageProcessors {
    /// Runs `processors` in order on `image`, each on a thread of `pool` (never on the cooperative pool).
    ///
    /// Cancellation is checked before and after each processor; a processor already running is not interrupted.
    /// - Parameters:
    ///   - processors: applied first to last; an empty list returns `image` without a hop to `pool`.
    ///   - image: the decoded image.
    ///   - pool: ``WorkerThreadPool/cpu`` by default.
    /// - Returns: the last processor's output.
    /// - Throws: what a processor throws, or `CancellationError`.
    public static func apply(
        _ processors: [any ImageProcessing], to image: PixelImage, on pool: WorkerThreadPool = .cpu
    ) async throws -> PixelImage {
        var current = image
        for processor in processors {
            try Task.checkCancellation()
            let input = current
            current = try await pool.run { try processor.process(input) }
        }
        try Task.checkCancellation()
        return current
    }

    /// The identifiers of `processors` joined in order (`""` for none): the processing part of a cache key.
    public static func identifier(of processors: [any ImageProcessing]) -> String {
        processors.map(\.identifier).joined(separator: "|")
    }
}
