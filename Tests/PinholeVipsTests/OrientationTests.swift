import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// EXIF orientation: all eight values come out upright, and the thumbnail box applies to the displayed size.
@Suite(.timeLimit(scaledMinutes: 1))
struct OrientationTests {
    let decoder = VipsDecoder()

    /// The displayed quadrants of every orient-N fixture: red, green / blue, yellow.
    static func expectUprightQuadrants(_ image: PixelImage, tolerance: Int = 40) {
        let (w, h) = (image.width, image.height)
        let samples: [(x: Int, y: Int, rgb: [Int])] = [
            (w / 4, h / 4, [255, 0, 0]), (3 * w / 4, h / 4, [0, 255, 0]),
            (w / 4, 3 * h / 4, [0, 0, 255]), (3 * w / 4, 3 * h / 4, [255, 255, 0]),
        ]
        for sample in samples {
            let pixel = image.pixel(x: sample.x, y: sample.y)
            let got = [Int(pixel.r), Int(pixel.g), Int(pixel.b)]
            let worst = zip(got, sample.rgb).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= tolerance, "at (\(sample.x),\(sample.y)) of \(w)×\(h): \(got) vs \(sample.rgb)")
        }
    }

    @Test(arguments: 1...8)
    func decodesAllEightOrientationsUpright(orientation: Int) async throws {
        // Given a 120×80 (displayed) JPEG stored with EXIF orientation N
        let data = try await Fixtures.caseFile("inputs/orient-\(orientation).jpg")

        // When it is decoded at full size and as a 60-px thumbnail
        let full = try await decoder.decode(data, options: DecodingOptions())
        let small = try await decoder.decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 60)))

        // Then both are upright, landscape, and the thumbnail box was applied to the displayed size
        #expect(full.info.orientation == orientation)
        #expect((full.image.width, full.image.height) == (120, 80))
        #expect((small.image.width, small.image.height) == (60, 40))
        Self.expectUprightQuadrants(full.image)
        Self.expectUprightQuadrants(small.image)
    }

    @Test func reportsTheDisplayedSizeFromTheHeaderAlone() async throws {
        // Given orientation 6 (stored 80×120, displayed 120×80)
        let data = try await Fixtures.caseFile("inputs/orient-6.jpg")

        // When only the header is read
        let info = try await decoder.readInfo(data)

        // Then the displayed size and the orientation are reported
        #expect(info == DecodedImage.SourceInfo(format: .jpeg, width: 120, height: 80, orientation: 6, frameCount: 1))
    }

    @Test func doesNotApplyAnExifOrientationInsideHEIF() async throws {
        // Given a HEIC whose EXIF says 6 but which has no irot box (stored and displayed 80×120)
        let data = try await Fixtures.caseFile("inputs/heic-exif-orient6.heic")

        // When decoded, Then it is shown as stored, not rotated
        let decoded = try await decoder.decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 60)))
        #expect((decoded.image.width, decoded.image.height) == (40, 60))
        #expect(decoded.info.orientation == 1)
    }

    @Test func upscalesOnlyWhenAsked() async throws {
        // Given a 40×30 PNG
        let data = try await Fixtures.caseFile("inputs/small-40x30.png")

        // When it is fitted in a 200-px box with and without upscaling
        let kept = try await decoder.decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 200)))
        let upscaled = try await decoder.decode(
            data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 200, allowsUpscaling: true)))

        // Then it keeps its size unless upscaling is allowed
        #expect((kept.image.width, kept.image.height) == (40, 30))
        #expect((upscaled.image.width, upscaled.image.height) == (200, 150))
    }

    @Test(arguments: [(1001, 333), (333, 1001), (257, 100), (640, 479)], [ImageFormat.jpeg, .png])
    func thumbnailSizeIsExactlyTheFittedSize(size: (width: Int, height: Int), format: ImageFormat) async throws {
        // Given an image with an awkward aspect ratio (libvips alone rounds the short side differently)
        let pixels = [UInt8](repeating: 90, count: size.width * size.height)
        let image = PixelImage(width: size.width, height: size.height, pixelFormat: .gray8, pixels: pixels)
        let data = try await VipsEncoder().encode(image, options: EncodingOptions(format: format))

        for box in [29, 50, 134, 239] {
            // When it is thumbnailed into the box
            let options = ThumbnailOptions(maxPixelSize: box)
            let decoded = try await decoder.decode(data, options: DecodingOptions(thumbnail: options))

            // Then its size is exactly ThumbnailOptions.fittedSize
            let fitted = options.fittedSize(width: size.width, height: size.height)
            #expect(decoded.image.width == fitted.width && decoded.image.height == fitted.height, "box \(box)")
        }
    }
}
