import CPinholeVips
import CVips
package import Pinhole

/// Text rendered by libvips (`vips_text`, Pango): for the labels of the benchmarks' charts.
package enum VipsText {
    /// `text` at `dpi` (96 by default) as a `gray8` coverage image: 0 where there is no ink, 255 where it is
    /// solid. Synchronous: call on a worker thread.
    ///
    /// - Throws: ``PinholeError/Code/processingFailed`` when libvips cannot render or read it.
    package static func render(_ text: String, dpi: Int = 96) throws -> PixelImage {
        try Vips.ensureInitialized()
        var image: UnsafeMutablePointer<VipsImage>?
        guard CPinholeVips_text(text, Int32(dpi), &image) == 0, let image else {
            throw PinholeError(.processingFailed, "vips_text failed for \"\(text)\"")
        }
        defer { CPinholeVips_unref(image) }
        let (width, height) = (Int(CPinholeVips_width(image)), Int(CPinholeVips_height(image)))
        var ink = [UInt8](repeating: 0, count: width * height)
        guard width > 0, height > 0, CPinholeVips_bands(image) == 1,
            CPinholeVips_copy_pixels(image, &ink, ink.count) == 0
        else { throw PinholeError(.processingFailed, "cannot read the pixels of text \"\(text)\"") }
        return PixelImage(width: width, height: height, pixelFormat: .gray8, pixels: ink)
    }
}
