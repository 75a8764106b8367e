import Pinhole

extension ImageProcessors {
    /// Runs one libvips operation chain on a copy of `image` and copies the result out as 8-bit sRGB
    /// (`gray8`, `rgb8` or `rgba8` with straight alpha). Call on a worker thread.
    ///
    /// - Throws: ``PinholeError/Code/processingFailed`` with libvips' message, naming `operation`.
    static func withVips(
        _ image: PixelImage, operation: String,
        _ body: (VipsImageHandle, (String) -> PinholeError) throws -> VipsImageHandle
    ) throws -> PixelImage {
        let failure = { (message: String) in PinholeError(.processingFailed, "\(operation) failed: \(message)") }
        do {
            try Vips.ensureInitialized()
        } catch {
            throw failure("\(error)")
        }
        let source = try VipsImageHandle.copying(image, failure: failure)
        return try body(source, failure).pixelImage(failure: failure)
    }
}
