import CPinholeVips
import CVips
package import Foundation
package import Pinhole

/// JPEG shrink-on-load on the libvips path, with the fast path's headroom.
///
/// The JPEGs the TurboJPEG fast path leaves to libvips are those with colour to convert: CMYK (through libvips'
/// fallback CMYK profile when none is embedded) and RGB or grey with a profile that is not sRGB (Adobe RGB,
/// Display P3, camera profiles). `vips_thumbnail` loads a JPEG at the largest DCT scale that leaves at least 2× for
/// its resize (libvips `libvips/resample/thumbnail.c`, `vips_thumbnail_find_jpegshrink`) and then imports the
/// profile on every loaded pixel, in float, through lcms, which then takes much of the thumbnail's time. Loading
/// at the scale the fast path uses (``jpegLoadShrink(width:height:box:)``: 1/4 for a 4 MP photo to 360 px, where
/// `vips_thumbnail` takes 1/2) gives libvips a quarter of the pixels to import; the look stays within the fast
/// path's bar of the plain `vips_thumbnail` result (PSNR ≥ 35 dB, `JPEGFastPathTests`, `JPEGLoadShrinkTests`).
/// Figures: BENCHMARKS.md, "2026-12-01 afternoon".
extension VipsDecoder {
    /// The JPEG load shrink (1, 2, 4 or 8) for a thumbnail to `box` of a `width` × `height` image (pixels; both
    /// displayed, or both stored): the largest whose loaded image is still ``headroom`` times the box on both sides
    /// and drops at most 1 % of either side; 1 when none is.
    ///
    /// libvips' `jpegload` with `shrink` gives each side divided and rounded *down*: it drops the last partial
    /// block (`width mod shrink` columns, `height mod shrink` rows), and the resize then stretches what is left over
    /// the box. On a photo that is a fraction of a pixel of the thumbnail; on a narrow image (12 × 1,200 at 1/8: 1 of
    /// 1.5 columns) it is a third of the picture, hence the 1 % bound.
    package static func jpegLoadShrink(width: Int, height: Int, box: PixelSize) -> Int {
        let covered = covered(box)
        return [8, 4, 2].first { shrink in
            width / shrink >= covered.width && height / shrink >= covered.height
                && (width % shrink) * 100 <= width && (height % shrink) * 100 <= height
        } ?? 1
    }

    /// The JPEG load shrink the libvips path uses for this decode, or 1 for libvips' own choice: only for JPEG
    /// thumbnails while the JPEG speed-ups are on (`jpegFastPath`), in the layouts the fast path takes, and for data
    /// that must decode whole.
    static func libvipsJPEGShrink(
        format: ImageFormat, options: DecodingOptions, header: VipsHeader, layout: ThumbnailOptions.Layout,
        jpegFastPath: Bool
    ) -> Int {
        guard jpegFastPath, format == .jpeg, options.thumbnail != nil, !options.allowsTruncatedData,
            takesOnFastPath(layout)
        else { return 1 }
        // Displayed sizes on both sides: a quarter turn swaps the image and the box alike.
        return jpegLoadShrink(width: header.info.width, height: header.info.height, box: layout.resized)
    }
}

extension VipsDecoder {
    /// The libvips path's thumbnail of the JPEG `data` to fit `maxPixelSize`, loaded at `shrink` (1, 2, 4 or 8), or
    /// with `vips_thumbnail`'s own shrink-on-load for `nil`. Not API: the tests compare the decoder's result with
    /// it. Blocking: call on a worker thread.
    /// - Throws: the ``PinholeError`` codes of ``VipsDecoder/decode(_:options:)``.
    package static func libvipsJPEGThumbnail(_ data: Data, maxPixelSize: Int, shrink: Int?) throws -> PixelImage {
        try Vips.ensureInitialized()
        let header = try readHeader(data, format: .jpeg)
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: maxPixelSize))
        return try thumbnail(
            data, format: .jpeg, header: header, layout: layout(options.thumbnail, header: header),
            failOn: options.failOn, interruption: nil, jpegShrink: shrink ?? 1)
    }
}
