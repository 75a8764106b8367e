import Foundation
import Pinhole
import PinholeVips

/// Fixed images for the picture tests: computed, or decoded by libvips from the project's fixture files.
enum ChafaFixtures {
    /// A 28×16 rgb8 gradient: red grows to the right (0…243), green downwards (0…225), blue 128.
    static let gradient: PixelImage = {
        var pixels: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<28 { pixels += [UInt8(x * 9), UInt8(y * 15), 128] }
        }
        return PixelImage(width: 28, height: 16, pixelFormat: .rgb8, pixels: pixels)
    }()

    /// A 90×30 rgb8 image: left third red, middle third green, right third blue.
    static let thirds: PixelImage = {
        var pixels: [UInt8] = []
        for _ in 0..<30 {
            for x in 0..<90 { pixels += x < 30 ? [255, 0, 0] : x < 60 ? [0, 255, 0] : [0, 0, 255] }
        }
        return PixelImage(width: 90, height: 30, pixelFormat: .rgb8, pixels: pixels)
    }()

    /// `Tests/Fixtures/cases/inputs`.
    static let inputs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/cases/inputs")

    /// `inputs/NAME` decoded by libvips at full size (lossless formats decode to the same pixels everywhere).
    static func decode(_ name: String) async throws -> PixelImage {
        let url = inputs.appendingPathComponent(name)
        let data = try await WorkerThreadPool.io.run { try Data(contentsOf: url) }
        return try await VipsDecoder().decode(data, options: DecodingOptions()).image
    }

    /// The mean colour of `image`'s pixels in `rect` (x, y, width, height), each channel 0…255.
    static func average(_ image: PixelImage, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil)
        -> (r: Double, g: Double, b: Double)
    {
        let width = width ?? image.width - x
        let height = height ?? image.height - y
        var sum = (r: 0.0, g: 0.0, b: 0.0)
        for row in y..<(y + height) {
            for column in x..<(x + width) {
                let pixel = image.pixel(x: column, y: row)
                sum.r += Double(pixel.r)
                sum.g += Double(pixel.g)
                sum.b += Double(pixel.b)
            }
        }
        let count = Double(max(1, width * height))
        return (sum.r / count, sum.g / count, sum.b / count)
    }

    /// The largest difference of one channel between two colours.
    static func distance(_ a: (r: Double, g: Double, b: Double), _ b: (r: Double, g: Double, b: Double)) -> Double {
        max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
    }
}
