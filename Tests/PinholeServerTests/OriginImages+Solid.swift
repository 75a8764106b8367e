import Foundation
import Pinhole
import PinholeVips

extension OriginImages {
    /// The colour of source `index`: distinct for indices 0…63, far enough apart to survive JPEG.
    static func colour(_ index: Int) -> PixelImage.RGBA {
        PixelImage.RGBA(
            r: UInt8(40 + (index % 4) * 60), g: UInt8(40 + (index / 4 % 4) * 60),
            b: UInt8(40 + (index / 16 % 4) * 60))
    }

    /// A `width`×`height` JPEG of one colour.
    static func solid(_ colour: PixelImage.RGBA, width: Int, height: Int) async throws -> Data {
        let pixels = [UInt8]((0..<width * height).flatMap { _ in [colour.r, colour.g, colour.b] })
        let image = PixelImage(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        return try await VipsEncoder().encode(image, options: EncodingOptions(format: .jpeg, quality: 95))
    }

    /// Whether `image`'s centre pixel is `colour`, within JPEG's error.
    static func isSolid(_ image: PixelImage, _ colour: PixelImage.RGBA) -> Bool {
        let centre = image.pixel(x: image.width / 2, y: image.height / 2)
        return [(centre.r, colour.r), (centre.g, colour.g), (centre.b, colour.b)].allSatisfy {
            abs(Int($0) - Int($1)) <= 12
        }
    }
}
