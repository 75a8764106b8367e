import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Synchronization
import Testing

/// The built-in processors (libvips) on real decoded images: sizes, alpha where it must be, colours kept.
@Suite(.timeLimit(scaledMinutes: 2))
struct ImageProcessorsTests {
    static let decoder = VipsDecoder(pool: ContentModeTests.pool)

    /// A fixture decoded at full size.
    static func decoded(_ relative: String) async throws -> PixelImage {
        try await decoder.decode(try await Fixtures.caseFile(relative), options: DecodingOptions()).image
    }

    static func near(_ pixel: PixelImage.RGBA, _ r: UInt8, _ g: UInt8, _ b: UInt8, tolerance: Int = 40) -> Bool {
        ContentModeTests.near(pixel, r, g, b, tolerance: tolerance)
    }

    @Test func circleCutsACentredSquareWithTransparentCorners() async throws {
        // Given a 400×300 photo-like JPEG in quadrants (red | green / blue | yellow)
        let image = try await Self.decoded("inputs/size-key-source.jpg")
        // When made a circle
        let circle = try await ImageProcessors.apply([ImageProcessors.Circle()], to: image)
        // Then it is the centred 300×300 square with alpha
        #expect(circle.width == 300 && circle.height == 300 && circle.pixelFormat == .rgba8)
        // And the corners are transparent, the middle and the edge midpoints opaque
        for (x, y) in [(0, 0), (299, 0), (0, 299), (299, 299), (30, 30), (268, 268)] {
            #expect(circle.pixel(x: x, y: y).a == 0, "(\(x),\(y)) \(circle.pixel(x: x, y: y))")
        }
        for (x, y) in [(150, 150), (150, 1), (1, 150), (298, 150), (150, 298), (60, 60)] {
            #expect(circle.pixel(x: x, y: y).a == 255, "(\(x),\(y)) \(circle.pixel(x: x, y: y))")
        }
        // And the colours are the middle of the source (50 px cut from each side: red/green boundary at x = 150)
        #expect(Self.near(circle.pixel(x: 140, y: 75), 255, 0, 0) && Self.near(circle.pixel(x: 160, y: 75), 0, 255, 0))
        // And the edge is anti-aliased: some pixels are partly transparent
        #expect((0..<300).contains { x in (1...254).contains(circle.pixel(x: x, y: 10).a) })
    }

    @Test func roundedCornersMaskOnlyTheCorners() async throws {
        // Given a 400×300 decoded JPEG
        let image = try await Self.decoded("inputs/size-key-source.jpg")
        // When its corners are rounded with a 20 px radius
        let rounded = try ImageProcessors.RoundedCorners(radius: 20).process(image)
        // Then the size is kept and alpha added: 0 in the corners, 255 along the straight edges and inside
        #expect(rounded.width == 400 && rounded.height == 300 && rounded.pixelFormat == .rgba8)
        for (x, y) in [(0, 0), (4, 4), (399, 0), (0, 299), (399, 299), (395, 295)] {
            #expect(rounded.pixel(x: x, y: y).a == 0, "(\(x),\(y))")
        }
        for (x, y) in [(20, 0), (0, 20), (200, 0), (200, 150), (379, 299), (6, 6)] {
            #expect(rounded.pixel(x: x, y: y).a == 255, "(\(x),\(y))")
        }
        // And the arc is anti-aliased: the pixel centred 19.8 px from the corner centre is 0.7 covered
        #expect((170...182).contains(rounded.pixel(x: 5, y: 6).a), "\(rounded.pixel(x: 5, y: 6))")
        // And colours are untouched
        #expect(rounded.pixel(x: 100, y: 75).r == image.pixel(x: 100, y: 75).r)
        #expect(rounded.pixel(x: 300, y: 225).g == image.pixel(x: 300, y: 225).g)
    }

    @Test func roundedCornersKeepAnExistingAlpha() async throws {
        // Given a 64×32 WebP with opaque red, transparent and half-transparent blue regions
        let image = try await Self.decoded("inputs/webp-lossless-alpha.webp")
        // When its corners are rounded with a 4 px radius
        let rounded = try ImageProcessors.RoundedCorners(radius: 2, scale: 2).process(image)
        // Then the old alpha is kept away from the corners, and the corners are transparent
        #expect(rounded.pixel(x: 16, y: 16).a == 255)
        #expect(rounded.pixel(x: 48, y: 8).a == 0)
        #expect((126...130).contains(rounded.pixel(x: 48, y: 24).a))
        #expect(rounded.pixel(x: 0, y: 0).a == 0 && rounded.pixel(x: 0, y: 31).a == 0)
    }

    @Test func gaussianBlurMixesAcrossEdges() async throws {
        // Given a 256×192 JPEG of horizontal bands: red (y < 48), green, blue, yellow
        let image = try await Self.decoded("inputs/baseline.jpg")
        #expect(Self.near(image.pixel(x: 128, y: 44), 255, 0, 0) && Self.near(image.pixel(x: 128, y: 52), 0, 255, 0))
        // When blurred with sigma 6
        let blurred = try ImageProcessors.GaussianBlur(sigma: 6).process(image)
        // Then size and format are kept, the band middles keep their colour, and the red/green edge is a mix
        #expect(blurred.width == 256 && blurred.height == 192 && blurred.pixelFormat == image.pixelFormat)
        #expect(Self.near(blurred.pixel(x: 128, y: 24), 255, 0, 0))
        let edge = blurred.pixel(x: 128, y: 48)
        #expect((70...190).contains(edge.r) && (70...190).contains(edge.g), "\(edge)")
        // And a sigma of 0 changes nothing
        #expect(try ImageProcessors.GaussianBlur(sigma: 0).process(image) == image)
    }

    @Test func greyscaleKeepsLuminanceOnly() async throws {
        // Given the bands red, green, blue and yellow
        let image = try await Self.decoded("inputs/baseline.jpg")
        // When made greyscale
        let grey = try ImageProcessors.Greyscale().process(image)
        // Then it is one grey channel, and the bands keep their luminance order: blue < red < green < yellow
        #expect(grey.pixelFormat == .gray8 && grey.width == 256 && grey.height == 192)
        let (red, green, blue, yellow) = (
            grey.pixel(x: 128, y: 24).r, grey.pixel(x: 128, y: 72).r, grey.pixel(x: 128, y: 120).r,
            grey.pixel(x: 128, y: 168).r
        )
        #expect(blue < red && red < green && green < yellow, "\(red) \(green) \(blue) \(yellow)")
        // And an image with alpha keeps it, with r = g = b
        let withAlpha = try ImageProcessors.Greyscale().process(
            try await Self.decoded("inputs/webp-lossless-alpha.webp"))
        let halfBlue = withAlpha.pixel(x: 48, y: 24)
        #expect(withAlpha.pixelFormat == .rgba8 && halfBlue.r == halfBlue.g && halfBlue.g == halfBlue.b)
        #expect((126...130).contains(halfBlue.a) && withAlpha.pixel(x: 48, y: 8).a == 0)
    }

    @Test func resizeProcessorFillsAndCropsADecodedImage() async throws {
        // Given the 1200×400 grey image with a saturated patch on the right, decoded at full size
        let data = try await Fixtures.read(Fixtures.root.appendingPathComponent("vips/attention-right-1200x400.jpg"))
        let full = try await Self.decoder.decode(data, options: DecodingOptions()).image
        // When resized to fill 100×100 with an attention crop, and fitted into 100×100
        let filled = try ImageProcessors.Resize(
            size: PixelSize(width: 100, height: 100), contentMode: .fill(crop: .attention)
        ).process(full)
        let fitted = try ImageProcessors.Resize(ThumbnailOptions(maxPixelSize: 100)).process(full)
        // Then the sizes are exact and the crop holds the patch
        #expect(filled.width == 100 && filled.height == 100)
        #expect(ContentModeTests.isSaturated(filled.pixel(x: 70, y: 50)), "\(filled.pixel(x: 70, y: 50))")
        #expect(fitted.width == 100 && fitted.height == 33)
    }

    @Test func resizeRefusesAnUpscaleOverThePixelLimit() async throws {
        // Given a small image and a resize allowed to upscale to 20,000 × 20,000
        let image = try await Self.decoded("inputs/small-40x30.png")
        let resize = ImageProcessors.Resize(size: PixelSize(width: 20_000, height: 20_000), allowsUpscaling: true)
        // When processed, Then it fails with a typed error and allocates nothing
        #expect { _ = try resize.process(image) } throws: { ($0 as? PinholeError)?.code == .tooManyPixels }
    }

    @Test func identifiersNameTheOperationAndItsParameters() {
        // Given processors with different parameters
        let identifiers = [
            ImageProcessors.Circle().identifier, ImageProcessors.Greyscale().identifier,
            ImageProcessors.RoundedCorners(radius: 8).identifier,
            ImageProcessors.RoundedCorners(radius: 8, scale: 2).identifier,
            ImageProcessors.GaussianBlur(sigma: 4).identifier, ImageProcessors.GaussianBlur(sigma: 8).identifier,
            ImageProcessors.Resize(ThumbnailOptions(maxPixelSize: 100)).identifier,
            ImageProcessors.Resize(size: PixelSize(width: 100, height: 100), contentMode: .fill(crop: .centre))
                .identifier,
            ImageProcessors.Resize(size: PixelSize(width: 100, height: 100), contentMode: .fill(crop: .attention))
                .identifier,
        ]
        // Then no two are the same, and equal parameters give equal identifiers
        #expect(Set(identifiers).count == identifiers.count, "\(identifiers)")
        #expect(
            ImageProcessors.RoundedCorners(radius: 16).identifier
                == ImageProcessors.RoundedCorners(radius: 8, scale: 2).identifier)
        #expect(
            ImageProcessors.identifier(of: [ImageProcessors.Circle(), ImageProcessors.Greyscale()])
                == "pinhole.circle|pinhole.greyscale")
    }
}
