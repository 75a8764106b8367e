import Foundation
import PinholeTestSupport
import PinholeVips
import Testing

@testable import Pinhole

/// ThumbHashes of real photos: made at any size (libvips shrinks to 100 px first), and a placeholder whose colours
/// are the photo's.
@Suite(.timeLimit(scaledMinutes: 1))
struct ThumbHashVipsTests {
    /// The mean red, green and blue of `image`, weighted by alpha (as ThumbHash averages).
    static func mean(_ image: PixelImage) -> (Double, Double, Double) {
        var sums = (0.0, 0.0, 0.0)
        var weight = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image.pixel(x: x, y: y)
                let alpha = Double(pixel.a) / 255
                sums.0 += Double(pixel.r) * alpha
                sums.1 += Double(pixel.g) * alpha
                sums.2 += Double(pixel.b) * alpha
                weight += alpha
            }
        }
        return (sums.0 / weight, sums.1 / weight, sums.2 / weight)
    }

    /// Whether each channel of `a` is within `tolerance` of `b`'s.
    static func isClose(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ tolerance: Double) -> Bool {
        abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance && abs(a.2 - b.2) <= tolerance
    }

    @Test(arguments: ["baseline.jpg", "iccp-p3-green.png", "cmyk-adobe.jpg", "gray-alpha.png"])
    func thePlaceholderOfAPhotoHasItsMeanColourAndAspect(file: String) async throws {
        // Given a 360 px thumbnail of a fixture photo
        let data = try await Fixtures.caseFile("inputs/\(file)")
        let thumbnail = try await VipsDecoder().decode(
            data, options: DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 360))
        ).image

        // When its ThumbHash is made (libvips shrinks it to 100 px first) and decoded
        let hash = try await WorkerThreadPool.cpu.run { try ThumbHash.make(from: thumbnail) }
        let placeholder = hash.decoded()

        // Then the hash's average colour is the photo's (alpha-weighted) to within its 6-bit quantization, the
        // placeholder's mean to within 16 levels (it is also clamped where its few terms overshoot), and its shape
        // follows the photo's
        let (photo, painted) = (Self.mean(thumbnail), Self.mean(placeholder))
        let average = hash.averageColour
        let averageRGB = (Double(average.r), Double(average.g), Double(average.b))
        #expect(Self.isClose(averageRGB, photo, 6), "photo \(photo), hash average \(averageRGB)")
        #expect(Self.isClose(painted, photo, 16), "photo \(photo), placeholder \(painted)")
        let photoIsLandscape = thumbnail.width > thumbnail.height
        #expect(photoIsLandscape == (placeholder.width > placeholder.height) || thumbnail.width == thumbnail.height)
        #expect(max(placeholder.width, placeholder.height) == ThumbHash.decodedSide)
    }
}
