public import Pinhole

/// The processing options of a ``ProcessingURL``: imgproxy's names and defaults, for the subset Pinhole serves.
///
/// | Option | Arguments | Default |
/// |---|---|---|
/// | `resize`, `rs` | type:width:height:enlarge:extend | |
/// | `size`, `s` | width:height:enlarge:extend | |
/// | `resizing_type`, `rt` | `fit`, `fill`, `fill-down` | `fit` |
/// | `width`, `w` / `height`, `h` | pixels, 0 = from the aspect ratio | 0 |
/// | `enlarge`, `el` | `1`/`t`/`true`, `0`/`f`/`false` | false |
/// | `extend`, `ex` | false only | false |
/// | `gravity`, `g` | `ce`, `no`, `so`, `ea`, `we`, `noea`, `nowe`, `soea`, `sowe`, `sm` (offsets 0) | `ce` |
/// | `quality`, `q` | 1…100, 0 = the server's default | 0 |
/// | `format`, `f`, `ext` | `jpg`, `png`, `webp`, `avif`, `gif` | negotiated from `Accept` |
/// | `animated`, `an` | boolean: keep an animation when the output format can carry it | false |
/// | `disable_animation`, `da` | boolean: imgproxy's name; `da:0` is `an:1` | true |
/// | `dpr` | 0 < dpr ≤ 8: multiplies width and height | 1 |
/// | `cachebuster`, `cb` | any text: changes the URL, nothing else | |
///
/// Anything else is a ``ProcessingURLError`` (`unknown_option`, `invalid_option` or `unsupported_option`).
public struct ProcessingOptions: Sendable, Hashable {
    /// How the image meets the width × height box.
    public enum ResizingType: String, Sendable, Hashable {
        /// Inside the box, aspect kept.
        case fit
        /// Covers the box and is cropped to it (not enlarged unless `enlarge`: then smaller, at the box's aspect).
        case fill
        /// As `fill`, and never enlarged.
        case fillDown = "fill-down"
    }

    public var resizingType = ResizingType.fit
    /// Box width in pixels before ``dpr``; 0 = from the aspect ratio.
    public var width = 0
    /// Box height in pixels before ``dpr``; 0 = from the aspect ratio.
    public var height = 0
    public var enlarge = false
    /// Where a fill crops.
    public var gravity = ThumbnailOptions.Crop.centre
    /// 1…100, or `nil` for the server's default.
    public var quality: Int?
    /// The output format, or `nil` to negotiate it from `Accept`.
    public var format: OutputFormat?
    public var dpr = 1.0
    public var cacheBuster = ""
    /// Whether an animated source (GIF, animated WebP) is answered with an animation: WebP or GIF, explicit or
    /// negotiated (WebP when `Accept` names it, else GIF), within the server's frame and pixel limits
    /// (``ServerConfiguration/maxAnimationFrames``, ``ServerConfiguration/maxAnimationPixels``). `false` by
    /// default: the first frame, as imgproxy answers unless its frame limit is raised. Any other explicit format,
    /// or a source past the limits, gives the first frame.
    public var animated = false

    /// The largest box side accepted, after ``dpr``: 4,096 (a 16.8-megapixel answer at most; an 8,192-px AVIF
    /// took 49 s to encode).
    public static let maxSide = 4096

    public init() {}

    /// The box in pixels, or `nil` when neither side is set (the image at its own size).
    public var thumbnail: ThumbnailOptions? {
        let width = Int((Double(self.width) * dpr).rounded())
        let height = Int((Double(self.height) * dpr).rounded())
        guard width > 0 || height > 0 else { return nil }
        // A side of 0 follows the aspect ratio: fit inside a box unbounded on that side.
        guard width > 0, height > 0 else {
            let unbounded = 1 << 24
            return ThumbnailOptions(
                size: PixelSize(width: width > 0 ? width : unbounded, height: height > 0 ? height : unbounded),
                contentMode: .aspectFit, allowsUpscaling: enlarge)
        }
        let mode: ThumbnailOptions.ContentMode = resizingType == .fit ? .aspectFit : .fill(crop: gravity)
        return ThumbnailOptions(
            size: PixelSize(width: width, height: height), contentMode: mode,
            allowsUpscaling: enlarge && resizingType != .fillDown)
    }
}
