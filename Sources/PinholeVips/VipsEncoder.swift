import CPinholeVips
public import Foundation
public import Pinhole

/// Encodes ``PixelImage``s as JPEG, PNG, WebP or AVIF with libvips.
///
/// - JPEG: ``EncodingOptions/quality`` (1…100), metadata stripped; transparent pixels are flattened onto
///   ``EncodingOptions/background`` (white by default), never onto implicit black.
/// - PNG: lossless, keeps alpha, metadata stripped; quality is ignored.
/// - WebP: lossy at ``EncodingOptions/quality``, keeps alpha, metadata stripped.
/// - AVIF: lossy AV1 (libheif) at ``EncodingOptions/quality``, keeps alpha, metadata stripped.
/// - GIF: a palette of up to 256 colours (libvips' cgif saver), 1-bit alpha; quality is ignored.
/// - Animations (``AnimatedImageEncoding``): GIF and WebP (`VipsEncoder+Animation.swift`).
///
/// Input is taken as 8-bit sRGB (`gray8`, `rgb8`, or `rgba8` with straight alpha); any row stride is accepted.
/// Encoding runs on `pool`, never on Swift's cooperative pool; cancellation is checked before and after.
/// Safe from any isolation.
public struct VipsEncoder: ImageEncoding {
    /// The threads that run libvips.
    public let pool: WorkerThreadPool

    /// - Parameter pool: the threads that run libvips; ``WorkerThreadPool/cpu`` by default.
    public init(pool: WorkerThreadPool = .cpu) {
        self.pool = pool
    }

    /// Encodes `image` as `options` say.
    ///
    /// - Returns: the encoded bytes.
    /// - Throws: ``PinholeError`` with ``PinholeError/Code/unsupportedFormat`` for formats other than JPEG, PNG,
    ///   WebP, AVIF and GIF, ``PinholeError/Code/encodingFailed`` (with libvips' message) when libvips fails;
    ///   `CancellationError` when the task is cancelled.
    public func encode(_ image: PixelImage, options: EncodingOptions) async throws -> Data {
        guard [ImageFormat.jpeg, .png, .webp, .avif, .gif].contains(options.format) else {
            throw PinholeError(
                .unsupportedFormat,
                "cannot encode \(options.format.name): JPEG, PNG, WebP, AVIF and GIF are supported",
                detectedType: options.format.name)
        }
        try Task.checkCancellation()
        let data = try await pool.run { try Self.encodeNow(image, options: options) }
        try Task.checkCancellation()
        return data
    }

    /// The whole encode, synchronous; runs on a worker thread.
    static func encodeNow(_ image: PixelImage, options: EncodingOptions) throws -> Data {
        try Vips.ensureInitialized()
        let failure = { (message: String) in
            PinholeError(.encodingFailed, "cannot encode \(options.format.name): \(message)")
        }
        var source = try VipsImageHandle.copying(image, failure: failure)
        if options.format == .jpeg {
            source = try source.flattened(onto: options.background, failure: failure)
        }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let quality = Int32(options.quality)
        let status: Int32
        switch options.format {
        case .jpeg: status = CPinholeVips_jpegsave(source.pointer, quality, &buffer, &length)
        case .webp: status = CPinholeVips_webpsave(source.pointer, quality, &buffer, &length)
        case .avif: status = CPinholeVips_avifsave(source.pointer, quality, &buffer, &length)
        case .gif: status = CPinholeVips_gifsave(source.pointer, &buffer, &length)
        default: status = CPinholeVips_pngsave(source.pointer, &buffer, &length)
        }
        defer { CPinholeVips_free(buffer) }
        guard status == 0, let buffer else { throw failure(Vips.takeErrorMessage()) }
        return Data(bytes: buffer, count: length)
    }
}
