import Foundation

/// Decoding: the hash's terms summed back into a small image (saturation raised 1.25× to make up for the
/// quantization, as the reference does).
extension ThumbHash {
    /// The placeholder image: `rgba8`, ``decodedSide`` pixels on its longer side, the shorter from
    /// ``approximateAspectRatio`` (at least 1 pixel).
    public func decoded() -> PixelImage {
        let header = header
        var reader = NibbleReader(bytes: bytes, offset: header.hasAlpha ? 6 : 5)
        let lTerms = Array(Self.triangle(columns: header.lColumns, rows: header.lRows).dropFirst())
        let colourTerms = Array(Self.triangle(columns: 3, rows: 3).dropFirst())
        let alphaTerms = header.hasAlpha ? Array(Self.triangle(columns: 5, rows: 5).dropFirst()) : []
        let l = lTerms.map { _ in reader.next(scale: header.lScale) }
        let p = colourTerms.map { _ in reader.next(scale: header.pScale * 1.25) }
        let q = colourTerms.map { _ in reader.next(scale: header.qScale * 1.25) }
        let a = alphaTerms.map { _ in reader.next(scale: header.aScale) }
        let ratio = approximateAspectRatio
        let side = Double(Self.decodedSide)
        let width = ratio > 1 ? Self.decodedSide : max(1, Int((side * ratio).rounded()))
        let height = ratio > 1 ? max(1, Int((side / ratio).rounded())) : Self.decodedSide
        // The cosines, once per column and row: cos(π / side × (position + 0.5) × term), the rows' doubled.
        let termsAcross = max(header.lColumns, header.hasAlpha ? 5 : 3)
        let termsDown = max(header.lRows, header.hasAlpha ? 5 : 3)
        let across = (0..<width).map { x in
            (0..<termsAcross).map { cx in cos(Double.pi / Double(width) * (Double(x) + 0.5) * Double(cx)) }
        }
        let down = (0..<height).map { y in
            (0..<termsDown).map { cy in 2 * cos(Double.pi / Double(height) * (Double(y) + 0.5) * Double(cy)) }
        }
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (fx, fy) = (across[x], down[y])
                var (lValue, pValue, qValue, aValue) = (header.lDC, header.pDC, header.qDC, header.aDC)
                for (index, term) in lTerms.enumerated() { lValue += l[index] * fx[term.cx] * fy[term.cy] }
                for (index, term) in colourTerms.enumerated() {
                    let f = fx[term.cx] * fy[term.cy]
                    pValue += p[index] * f
                    qValue += q[index] * f
                }
                for (index, term) in alphaTerms.enumerated() { aValue += a[index] * fx[term.cx] * fy[term.cy] }
                let (r, g, b) = Self.rgb(l: lValue, p: pValue, q: qValue)
                pixels += [Self.byte(r), Self.byte(g), Self.byte(b), Self.byte(aValue)]
            }
        }
        return PixelImage(width: width, height: height, pixelFormat: .rgba8, pixels: pixels)
    }

    /// Reads the 4-bit AC values after the header, low nibble first (the length was checked at init).
    private struct NibbleReader {
        let bytes: [UInt8]
        var offset: Int
        var index = 0

        /// The next value mapped from 0…15 to −scale…scale.
        mutating func next(scale: Double) -> Double {
            let byte = bytes[offset + index / 2]
            let bits = index.isMultiple(of: 2) ? byte & 15 : byte >> 4
            index += 1
            return (Double(bits) / 7.5 - 1) * scale
        }
    }
}
