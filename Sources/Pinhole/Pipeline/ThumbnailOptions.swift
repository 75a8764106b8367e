/// The box a thumbnail must fit in.
///
/// The longest side of the result is at most ``maxPixelSize`` pixels; the aspect ratio is kept; sides are
/// rounded to the nearest pixel and never below 1 px. Images smaller than the box keep their size unless
/// ``allowsUpscaling`` is set. The box applies to the image *as displayed* (after EXIF orientation).
public struct ThumbnailOptions: Sendable, Hashable, CustomStringConvertible {
    /// The longest side of the thumbnail, in pixels (≥ 1).
    public var maxPixelSize: Int
    /// Whether an image smaller than the box is scaled up to fill it; `false` by default.
    public var allowsUpscaling: Bool

    /// - Parameters:
    ///   - maxPixelSize: longest side in pixels; values below 1 are treated as 1.
    ///   - allowsUpscaling: scale up images smaller than the box; `false` by default.
    public init(maxPixelSize: Int, allowsUpscaling: Bool = false) {
        self.maxPixelSize = max(1, maxPixelSize)
        self.allowsUpscaling = allowsUpscaling
    }

    /// The size in pixels that an image of `width × height` gets in this box: aspect kept, rounded to the
    /// nearest pixel, each side ≥ 1.
    public func fittedSize(width: Int, height: Int) -> PixelSize {
        let longest = max(width, height)
        guard longest > maxPixelSize || (allowsUpscaling && longest < maxPixelSize) else {
            return PixelSize(width: width, height: height)
        }
        let scale = Double(maxPixelSize) / Double(longest)
        // Compare in Double first: with upscaling and a huge box the product can exceed Int's range.
        func side(_ length: Int) -> Int {
            let scaled = (Double(length) * scale).rounded()
            return scaled >= Double(maxPixelSize) ? maxPixelSize : max(1, Int(scaled))
        }
        let w = side(width)
        let h = side(height)
        return PixelSize(width: w, height: h)
    }

    public var description: String { allowsUpscaling ? "\(maxPixelSize)px+up" : "\(maxPixelSize)px" }
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

    /// Width × height.
    public var pixelCount: Int { width * height }

    public var description: String { "\(width)×\(height)" }
}
