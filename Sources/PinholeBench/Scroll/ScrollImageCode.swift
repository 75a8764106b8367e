public import Foundation
public import Pinhole

/// Which URL a served image belongs to, painted into its pixels: the row (URL index) and the refresh generation,
/// so that the scroll reproduction judges every *shown* image by its pixels alone.
///
/// The code is 24 bits: the row modulo 2¹⁴ (16,384 rows), the generation modulo 2⁶ (64 refreshes, 25 s at one
/// every 400 ms) and a 4-bit check. It fills the top half of the image as a 4 × 2 grid of flat cells, each one of
/// the eight corners of the RGB cube (3 bits: red, green, blue on or off), left to right, top to bottom. Cells
/// that large and that saturated survive JPEG (quality 80, 4:2:0 chroma) and shrinking to a 64-pixel thumbnail
/// (16 × 16 pixels a cell); a reader averages the middle half of each cell and takes the nearest corner.
public struct ScrollImageCode: Hashable, Sendable, CustomStringConvertible {
    /// The row, modulo 2¹⁴.
    public let row: Int
    /// The refresh generation, modulo 2⁶.
    public let generation: Int

    public init(row: Int, generation: Int) {
        self.row = row & 0x3FFF
        self.generation = generation & 0x3F
    }

    /// The code of a scroll reproduction URL, `…/img/<row>?v=<generation>`; `nil` for any other URL.
    public init?(url: URL) {
        let parts = url.path.split(separator: "/")
        guard parts.count >= 2, parts[parts.count - 2] == "img", let row = Int(parts[parts.count - 1]) else {
            return nil
        }
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        self.init(row: row, generation: query?.first { $0.name == "v" }?.value.flatMap { Int($0) } ?? 0)
    }

    public var description: String { "row \(row), generation \(generation)" }

    /// The 24 bits: row, generation, check.
    var bits: Int { row << 10 | generation << 4 | Self.check(row: row, generation: generation) }

    /// Four bits computed from the others (XOR of their nibbles): a misread cell almost never passes.
    static func check(row: Int, generation: Int) -> Int {
        (row ^ row >> 4 ^ row >> 8 ^ row >> 12 ^ generation ^ generation >> 4 ^ 0x5) & 0xF
    }

    /// The cell rectangles of an image `width` × `height` pixels: 4 across and 2 down over the top half.
    static func cells(width: Int, height: Int) -> [(x: Range<Int>, y: Range<Int>)] {
        (0..<8).map { index in
            let column = index % 4
            let line = index / 4
            return (
                x: (column * width / 4)..<((column + 1) * width / 4),
                y: (line * height / 4)..<((line + 1) * height / 4)
            )
        }
    }

    /// Paints the code over the top half of `image` (8-bit RGB or RGBA; other formats are left as they are).
    public func paint(_ image: inout PixelImage) {
        let bytesPerPixel = image.pixelFormat.bytesPerPixel
        guard bytesPerPixel >= 3 else { return }
        var pixels = image.pixels
        for (index, cell) in Self.cells(width: image.width, height: image.height).enumerated() {
            let colour = bits >> (21 - 3 * index) & 0x7
            let rgb: [UInt8] = [colour & 4 == 0 ? 0 : 255, colour & 2 == 0 ? 0 : 255, colour & 1 == 0 ? 0 : 255]
            for y in cell.y {
                for x in cell.x {
                    let offset = y * image.bytesPerRow + x * bytesPerPixel
                    pixels[offset] = rgb[0]
                    pixels[offset + 1] = rgb[1]
                    pixels[offset + 2] = rgb[2]
                }
            }
        }
        image = PixelImage(
            width: image.width, height: image.height, pixelFormat: image.pixelFormat, bytesPerRow: image.bytesPerRow,
            pixels: pixels)
    }

    /// Reads the code painted into `image` (any size, any pixel format); `nil` when a cell is not clearly one of the
    /// eight colours (every channel's mean below 64 or above 191) or the check fails: not a coded image, or one
    /// damaged beyond reading.
    public static func read(_ image: PixelImage) -> ScrollImageCode? {
        guard image.width >= 8, image.height >= 8 else { return nil }
        var bits = 0
        for cell in cells(width: image.width, height: image.height) {
            // The middle half of the cell, away from the edges that JPEG and resizing blur.
            let xs = (cell.x.lowerBound + cell.x.count / 4)..<(cell.x.upperBound - cell.x.count / 4)
            let ys = (cell.y.lowerBound + cell.y.count / 4)..<(cell.y.upperBound - cell.y.count / 4)
            var sums = [0, 0, 0]
            for y in ys {
                for x in xs {
                    let pixel = image.pixel(x: x, y: y)
                    sums[0] += Int(pixel.r)
                    sums[1] += Int(pixel.g)
                    sums[2] += Int(pixel.b)
                }
            }
            let means = sums.map { $0 / max(1, xs.count * ys.count) }
            guard means.allSatisfy({ $0 < 64 || $0 > 191 }) else { return nil }
            bits = bits << 3 | means.reduce(0) { $0 << 1 | ($1 > 191 ? 1 : 0) }
        }
        let code = ScrollImageCode(row: bits >> 10, generation: bits >> 4 & 0x3F)
        return code.bits == bits ? code : nil
    }
}
