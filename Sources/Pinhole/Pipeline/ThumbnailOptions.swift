/// The box a thumbnail is made for, and how the image meets it (``ContentMode``).
///
/// The box is ``size``, in pixels, applied to the image *as displayed* (after EXIF orientation):
/// - ``ContentMode/aspectFit``: the whole image inside the box, aspect kept (one side equals the box's);
/// - ``ContentMode/aspectFill``: the image covers the box, aspect kept (one side equals the box's, the other
///   is longer); nothing is cut;
/// - ``ContentMode/fill(crop:)``: exactly the box: scaled to cover it, then cropped, keeping the centre or the
///   most interesting region (libvips `vips_smartcrop`).
///
/// Sides are rounded to the nearest pixel and never below 1 px. Images are never scaled up unless
/// ``allowsUpscaling`` is set: an image smaller than the box keeps its size (a `.fill` crop then keeps the
/// box's aspect ratio at the image's own scale: a 40×30 image filled into 200×200 gives 30×30).
///
/// ``maxPixelSize`` is the longest-side convenience: `ThumbnailOptions(maxPixelSize: 360)` is a 360×360 box
/// with ``ContentMode/aspectFit``. Hashable: every field takes part in ``ImageKey`` (two requests with different
/// boxes or modes are different images).
public struct ThumbnailOptions: Sendable, Hashable, CustomStringConvertible {
    /// How the image meets the box.
    public enum ContentMode: Sendable, Hashable, CustomStringConvertible {
        /// Inside the box, aspect kept: the result is at most ``ThumbnailOptions/size`` on both sides.
        case aspectFit
        /// Covers the box, aspect kept: the result is at least ``ThumbnailOptions/size`` on both sides (when the
        /// image is that large or upscaling is allowed), so one side is usually *longer* than the box's; nothing
        /// is cut. Not a crop: for a result of exactly the box, use ``fill(crop:)``.
        case aspectFill
        /// Exactly the box: scaled to cover it (as ``aspectFill``), then cropped to the box at `crop`.
        case fill(crop: Crop)

        public var description: String {
            switch self {
            case .aspectFit: "fit"
            case .aspectFill: "fill"
            case .fill(let crop): "fill-\(crop.rawValue)"
            }
        }
    }

    /// Which part of a covering image a ``ContentMode/fill(crop:)`` keeps (libvips' `VipsInteresting`).
    public enum Crop: String, Sendable, Hashable, CaseIterable {
        /// The middle (also spelled ``center``).
        case centre
        /// The most interesting region: edges, skin tones and saturated colour (libvips `attention`, after
        /// sharp's smart crop). The crop is placed to within 1/32 of the scaled image's side.
        case attention
        /// The region with the most information: slices of least entropy are cut away (libvips `entropy`).
        case entropy
        /// The top edge, centred across (imgproxy's gravity `no`); the compass crops are pure geometry.
        case north
        /// The bottom edge, centred across.
        case south
        /// The right edge, centred down.
        case east
        /// The left edge, centred down.
        case west
        /// The top-right corner.
        case northEast = "north-east"
        /// The top-left corner.
        case northWest = "north-west"
        /// The bottom-right corner.
        case southEast = "south-east"
        /// The bottom-left corner.
        case southWest = "south-west"

        /// The US spelling of ``centre`` (Nuke's): the same crop, the same identity.
        public static let center = Crop.centre

        /// Where a `width` × `height` window of a `fullWidth` × `fullHeight` image starts, for the compass crops
        /// and ``centre``; `nil` for the crops that look at the pixels (``attention``, ``entropy``).
        public func origin(width: Int, height: Int, fullWidth: Int, fullHeight: Int) -> (x: Int, y: Int)? {
            let spareX = max(0, fullWidth - width)
            let spareY = max(0, fullHeight - height)
            switch self {
            case .attention, .entropy: return nil
            case .centre: return (spareX / 2, spareY / 2)
            case .north: return (spareX / 2, 0)
            case .south: return (spareX / 2, spareY)
            case .east: return (spareX, spareY / 2)
            case .west: return (0, spareY / 2)
            case .northEast: return (spareX, 0)
            case .northWest: return (0, 0)
            case .southEast: return (spareX, spareY)
            case .southWest: return (0, spareY)
            }
        }
    }

    /// The box in pixels (both sides ≥ 1).
    public var size: PixelSize
    /// ``ContentMode/aspectFit`` by default.
    public var contentMode: ContentMode
    /// Whether an image smaller than the box is scaled up to meet it; `false` by default.
    public var allowsUpscaling: Bool

    /// The longest side of the box, in pixels. Setting it makes the box square (the longest-side form).
    public var maxPixelSize: Int {
        get { max(size.width, size.height) }
        set { size = PixelSize(width: max(1, newValue), height: max(1, newValue)) }
    }

    /// A longest-side thumbnail: fits inside a `maxPixelSize` × `maxPixelSize` box, aspect kept.
    ///
    /// - Parameters:
    ///   - maxPixelSize: longest side in pixels; values below 1 are treated as 1.
    ///   - allowsUpscaling: scale up images smaller than the box; `false` by default.
    public init(maxPixelSize: Int, allowsUpscaling: Bool = false) {
        self.init(size: PixelSize(width: maxPixelSize, height: maxPixelSize), allowsUpscaling: allowsUpscaling)
    }

    /// A box in pixels.
    ///
    /// - Parameters:
    ///   - size: the box in pixels; sides below 1 are treated as 1.
    ///   - contentMode: ``ContentMode/aspectFit`` by default.
    ///   - allowsUpscaling: scale up images smaller than the box; `false` by default.
    public init(size: PixelSize, contentMode: ContentMode = .aspectFit, allowsUpscaling: Bool = false) {
        self.size = PixelSize(width: max(1, size.width), height: max(1, size.height))
        self.contentMode = contentMode
        self.allowsUpscaling = allowsUpscaling
    }

    /// A box in points at a display scale: pixels = points × `scale`, rounded to the nearest pixel (≥ 1).
    ///
    /// - Parameters:
    ///   - width: box width in points.
    ///   - height: box height in points.
    ///   - scale: pixels per point (2 or 3 on most phones); 1 by default.
    ///   - contentMode: ``ContentMode/aspectFit`` by default.
    ///   - allowsUpscaling: scale up images smaller than the box; `false` by default.
    public init(
        width: Double, height: Double, scale: Double = 1, contentMode: ContentMode = .aspectFit,
        allowsUpscaling: Bool = false
    ) {
        self.init(
            size: PixelSize(width: Self.pixels(width * scale), height: Self.pixels(height * scale)),
            contentMode: contentMode, allowsUpscaling: allowsUpscaling)
    }

    /// The size in pixels of the result for an image of `width × height` (as displayed): what
    /// ``layout(width:height:)`` gives as ``Layout/output``.
    public func fittedSize(width: Int, height: Int) -> PixelSize {
        layout(width: width, height: height).output
    }

    public var description: String {
        let up = allowsUpscaling ? "+up" : ""
        if contentMode == .aspectFit, size.width == size.height { return "\(size.width)px\(up)" }
        return "\(size) \(contentMode)\(up)"
    }

    /// Rounds a length in pixels to the nearest whole pixel, at least 1 and at most 2^62 (no overflow).
    static func pixels(_ length: Double) -> Int {
        guard length.isFinite else { return length > 0 ? 1 << 62 : 1 }
        let rounded = length.rounded()
        return rounded >= Double(1 << 62) ? 1 << 62 : max(1, Int(rounded))
    }
}

/// A size in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Width × height; `Int.max` when the product does not fit (sides up to 2^62 are valid).
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    /// ``pixelCount`` × `frames`: the pixels of that many frames of this size; `Int.max` when it does not fit.
    public func pixelCount(frames: Int) -> Int {
        let (product, overflow) = pixelCount.multipliedReportingOverflow(by: frames)
        return overflow ? Int.max : product
    }

    public var description: String { "\(width)×\(height)" }
}
