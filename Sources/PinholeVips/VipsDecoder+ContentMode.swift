import Pinhole

/// Content modes on both decode paths: shrink on load to the layout's resized size (exactly), then cut the
/// layout's output out of it with `vips_smartcrop` (centre, attention or entropy) before the pixels are copied out.
///
/// This is what `vips_thumbnail_buffer` does with its `crop` option, in two steps so that the size is exactly
/// ``ThumbnailOptions/Layout/output``: libvips rounds the covering side itself, which can leave it a pixel short
/// of the box (and the crop then a pixel short). The JPEG fast path does the same two steps on TurboJPEG's pixels.
extension VipsDecoder {
    /// Whether the JPEG fast path takes a layout: every mode but an entropy crop.
    ///
    /// A centre crop is pure geometry, the same window on both paths. The attention crop scores a 32×32 grid of
    /// the scaled image, so the two paths' small pixel differences (PSNR ≥ 35 dB) did not move it on any of the
    /// 45 eligible corpus photos (tested). The entropy crop compares the entropy of slices one by one and moved by
    /// 5–16 px on 2 of those 45: it is declined, so that both paths give the same picture.
    static func takesOnFastPath(_ layout: ThumbnailOptions.Layout) -> Bool {
        layout.crop != .entropy
    }

    /// The layout of `thumbnail` for the displayed size in `header`; a full-size decode keeps the image as it is.
    static func layout(_ thumbnail: ThumbnailOptions?, header: VipsHeader) -> ThumbnailOptions.Layout {
        let full = PixelSize(width: header.info.width, height: header.info.height)
        return thumbnail?.layout(width: full.width, height: full.height)
            ?? ThumbnailOptions.Layout(resized: full, output: full, crop: nil)
    }
}

extension DecodingOptions {
    /// libvips' load option: `fail_on=truncated`, or none for a preview of data that ends early
    /// (``DecodingOptions/allowsTruncatedData``).
    var failOn: String? { allowsTruncatedData ? nil : "fail_on=truncated" }
}
