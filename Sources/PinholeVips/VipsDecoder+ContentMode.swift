import Pinhole

/// Content modes on both decode paths: shrink on load to the layout's resized size (exactly), then cut the
/// layout's output out of it with `vips_smartcrop` (centre, attention or entropy) before the pixels are copied out.
///
/// This is what `vips_thumbnail_buffer` does with its `crop` option, in two steps so that the size is exactly
/// ``ThumbnailOptions/Layout/output``: libvips rounds the covering side itself, which can leave it a pixel short
/// of the box (and the crop then a pixel short). The JPEG fast path does the same two steps on TurboJPEG's pixels.
extension VipsDecoder {
    /// Whether the JPEG fast path takes a layout: every mode but the attention and entropy crops.
    ///
    /// A centre crop is pure geometry, the same window on both paths. The entropy crop compares the entropy of
    /// slices one by one and moved by 5–16 px on 2 of the 45 eligible corpus photos between the paths. The
    /// attention crop scores a 32×32 grid of the scaled image and did not move on any of them while libvips used
    /// ORC; once libvips' ORC paths were turned off (its C reduce gives slightly different pixels) it moved on
    /// sunset-12mp (PSNR 23.6 dB between the paths' 200×200 fills). Both are declined, so that both paths give the
    /// same picture: a smart crop is a decision that small pixel differences can flip.
    static func takesOnFastPath(_ layout: ThumbnailOptions.Layout) -> Bool {
        layout.crop != .entropy && layout.crop != .attention
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
