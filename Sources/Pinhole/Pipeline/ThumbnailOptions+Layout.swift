extension ThumbnailOptions {
    /// Where an image of a given size lands in the box: the size it is scaled to (aspect kept), then the crop.
    ///
    /// Decoders shrink on load to ``resized`` (exactly), then cut ``output`` out of it at ``crop``.
    public struct Layout: Sendable, Hashable, CustomStringConvertible {
        /// The whole image scaled with its aspect kept, in pixels.
        public var resized: PixelSize
        /// The final size in pixels: ``resized``, or the part of it a ``ContentMode/fill(crop:)`` keeps.
        public var output: PixelSize
        /// Where to cut ``output`` out of ``resized``; `nil` when nothing is cut (``output`` == ``resized``).
        public var crop: Crop?

        public init(resized: PixelSize, output: PixelSize, crop: Crop?) {
            self.resized = resized
            self.output = output
            self.crop = crop
        }

        public var description: String {
            crop.map { "\(resized) → \(output) at \($0.rawValue)" } ?? "\(resized)"
        }
    }

    /// The layout of an image of `width × height` pixels (as displayed, both ≥ 1) in this box.
    ///
    /// - ``ContentMode/aspectFit``: scale = min(box / side) over both axes; each side ≤ the box's.
    /// - ``ContentMode/aspectFill`` and ``ContentMode/fill(crop:)``: scale = max(box / side); each side ≥ the
    ///   box's; a fill then crops to exactly the box.
    /// - A scale above 1 becomes 1 unless ``allowsUpscaling``: the image keeps its size, and a fill crops the
    ///   largest part of it that has the box's aspect ratio (never larger than the box).
    ///
    /// Sides are rounded to the nearest pixel, at least 1 and at most 2^62 (callers check their pixel limits).
    public func layout(width: Int, height: Int) -> Layout {
        let source = (width: Double(max(1, width)), height: Double(max(1, height)))
        let box = (width: Double(size.width), height: Double(size.height))
        let horizontal = box.width / source.width
        let vertical = box.height / source.height
        let fits = contentMode == .aspectFit
        let wanted = fits ? min(horizontal, vertical) : max(horizontal, vertical)
        let original = PixelSize(width: width, height: height)

        guard wanted != 1, wanted < 1 || allowsUpscaling else {
            // Kept at its own size; a fill crops the box's aspect ratio out of it.
            guard case .fill(let crop) = contentMode else {
                return Layout(resized: original, output: original, crop: nil)
            }
            let k = min(source.width / box.width, source.height / box.height, 1)
            let output = PixelSize(
                width: min(width, Self.pixels(box.width * k)), height: min(height, Self.pixels(box.height * k)))
            return Layout(resized: original, output: output, crop: output == original ? nil : crop)
        }
        // Rounding must not leave a fitted side past the box, nor a covering side short of it.
        func side(_ length: Double, _ boxSide: Int) -> Int {
            let scaled = Self.pixels(length * wanted)
            return fits ? min(boxSide, scaled) : max(boxSide, scaled)
        }
        let resized = PixelSize(width: side(source.width, size.width), height: side(source.height, size.height))
        guard case .fill(let crop) = contentMode, resized != size else {
            return Layout(resized: resized, output: resized, crop: nil)
        }
        return Layout(resized: resized, output: size, crop: crop)
    }
}
