public import Pinhole
import PinholeCurl

extension ImagePipeline {
    /// A process-wide pipeline for Linux: the libvips decoder (``VipsDecoder``) and encoder (``VipsEncoder``),
    /// HTTP(S) through `PinholeCurl`'s `HTTPDataLoader` and files through a ``FileDataLoader``, the default limits
    /// and memory cache, and no disk cache. Made on first use; safe from any isolation.
    ///
    /// ```swift
    /// let avatar = try await ImagePipeline.shared.image(for: url)
    /// ```
    /// For a disk cache, a different policy or other loaders, make a pipeline of your own
    /// (``ImagePipeline/init(configuration:)``).
    public static let shared = ImagePipeline(
        configuration: .init(
            decoder: VipsDecoder(), dataLoader: SchemeRoutingDataLoader(http: HTTPDataLoader()),
            encoder: VipsEncoder()))
}
