import Foundation

/// Encoding: the image's average colour, then the low-frequency DCT terms of L, P, Q (and A), each channel scaled
/// by its largest AC term and quantized to 4 bits.
extension ThumbHash {
    /// The hash of `image` (any pixel format; grey counts as RGB, no alpha as opaque).
    ///
    /// - Throws: ``PinholeError/Code/invalidRequest`` when a side is over ``maxEncodedSide`` (resize first).
    public init(encoding image: PixelImage) throws {
        let (width, height) = (image.width, image.height)
        guard width <= Self.maxEncodedSide, height <= Self.maxEncodedSide else {
            throw PinholeError(
                .invalidRequest,
                "a ThumbHash is made from at most \(Self.maxEncodedSide)×\(Self.maxEncodedSide) pixels, not "
                    + "\(width)×\(height): resize first")
        }
        let pixels = (0..<height).flatMap { y in (0..<width).map { x in image.pixel(x: x, y: y) } }
        // The average colour, weighted by alpha.
        var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        for pixel in pixels {
            let alpha = Double(pixel.a) / 255
            average.r += alpha / 255 * Double(pixel.r)
            average.g += alpha / 255 * Double(pixel.g)
            average.b += alpha / 255 * Double(pixel.b)
            average.a += alpha
        }
        if average.a > 0 {
            average.r /= average.a
            average.g /= average.a
            average.b /= average.a
        }
        let hasAlpha = average.a < Double(width * height)
        let longest = hasAlpha ? 5 : 7
        let longerSide = Double(max(width, height))
        let columns = max(1, Int((Double(longest * width) / longerSide).rounded()))
        let rows = max(1, Int((Double(longest * height) / longerSide).rounded()))
        // Each pixel composited over the average colour, as L, P, Q and A.
        var channels = (l: [Double](), p: [Double](), q: [Double](), a: [Double]())
        for pixel in pixels {
            let alpha = Double(pixel.a) / 255
            let r = average.r * (1 - alpha) + alpha / 255 * Double(pixel.r)
            let g = average.g * (1 - alpha) + alpha / 255 * Double(pixel.g)
            let b = average.b * (1 - alpha) + alpha / 255 * Double(pixel.b)
            channels.l.append((r + g + b) / 3)
            channels.p.append((r + g) / 2 - b)
            channels.q.append(r - g)
            channels.a.append(alpha)
        }
        let size = (width: width, height: height)
        let l = Self.encode(channels.l, size: size, columns: max(3, columns), rows: max(3, rows))
        let p = Self.encode(channels.p, size: size, columns: 3, rows: 3)
        let q = Self.encode(channels.q, size: size, columns: 3, rows: 3)
        let a = hasAlpha ? Self.encode(channels.a, size: size, columns: 5, rows: 5) : (dc: 1, ac: [], scale: 1)
        let isLandscape = width > height
        let header24 =
            Self.quantized(63 * l.dc) | Self.quantized(31.5 + 31.5 * p.dc) << 6
            | Self.quantized(31.5 + 31.5 * q.dc) << 12 | Self.quantized(31 * l.scale) << 18 | (hasAlpha ? 1 << 23 : 0)
        let header16 =
            (isLandscape ? rows : columns) | Self.quantized(63 * p.scale) << 3 | Self.quantized(63 * q.scale) << 9
            | (isLandscape ? 1 << 15 : 0)
        var bytes: [UInt8] = [
            UInt8(header24 & 255), UInt8(header24 >> 8 & 255), UInt8(header24 >> 16 & 255), UInt8(header16 & 255),
            UInt8(header16 >> 8 & 255),
        ]
        if hasAlpha { bytes.append(UInt8(Self.quantized(15 * a.dc) | Self.quantized(15 * a.scale) << 4)) }
        let nibbles = (l.ac + p.ac + q.ac + a.ac).map { UInt8(Self.quantized(15 * $0)) }
        for (index, nibble) in nibbles.enumerated() {
            if index.isMultiple(of: 2) { bytes.append(nibble) } else { bytes[bytes.count - 1] |= nibble << 4 }
        }
        try self.init(bytes: bytes)
    }

    /// The DC term, the AC terms mapped from −scale…scale to 0…1, and the scale (the largest AC magnitude) of one
    /// channel's DCT over the triangle of `columns` × `rows` terms.
    private static func encode(
        _ channel: [Double], size: (width: Int, height: Int), columns: Int, rows: Int
    ) -> (dc: Double, ac: [Double], scale: Double) {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0
        for (cx, cy) in triangle(columns: columns, rows: rows) {
            let across = (0..<size.width).map { x in
                cos(Double.pi / Double(size.width) * Double(cx) * (Double(x) + 0.5))
            }
            var sum = 0.0
            for y in 0..<size.height {
                let down = cos(Double.pi / Double(size.height) * Double(cy) * (Double(y) + 0.5))
                for x in 0..<size.width { sum += channel[x + y * size.width] * across[x] * down }
            }
            let term = sum / Double(size.width * size.height)
            if cx == 0 && cy == 0 {
                dc = term
            } else {
                ac.append(term)
                scale = max(scale, abs(term))
            }
        }
        if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        return (dc, ac, scale)
    }

    /// `value` rounded half away from zero (the reference's `Math.round` for these non-negative values), as an
    /// integer.
    private static func quantized(_ value: Double) -> Int { Int(value.rounded()) }
}
