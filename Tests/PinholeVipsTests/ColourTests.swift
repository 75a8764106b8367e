import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// Grey inputs: 8-bit, 16-bit, with alpha, with a mismatched ICC profile (LIBVIPS-NOTES items 4 and 5).
@Suite(.timeLimit(scaledMinutes: 1))
struct ColourTests {
    let decoder = VipsDecoder()

    static func fixture(_ name: String) async throws -> Data {
        try await Fixtures.read(Fixtures.root.appendingPathComponent("vips").appendingPathComponent(name))
    }

    @Test func decodesGreyAsGray8Exactly() async throws {
        // Given an 8-bit grey gradient PNG, black at the top, white at the bottom
        let data = try await Self.fixture("grey8.png")

        // When decoded
        let decoded = try await decoder.decode(data, options: DecodingOptions())

        // Then it stays one grey byte per pixel with its values untouched
        #expect(decoded.image.pixelFormat == .gray8)
        #expect(decoded.image.pixel(x: 16, y: 0).r == 0)
        #expect(decoded.image.pixel(x: 16, y: 15).r == 255)
    }

    @Test func scalesSixteenBitGreyToEightBit() async throws {
        // Given 16-bit grey (32768) without and with alpha (32768)
        let grey = try await decoder.decode(try await Self.fixture("grey16.png"), options: DecodingOptions())
        let greyAlpha = try await decoder.decode(try await Self.fixture("grey16-alpha.png"), options: DecodingOptions())

        // Then values become 8-bit (32768 / 257 ≈ 127.5) and grey+alpha becomes RGBA
        #expect(grey.image.pixelFormat == .gray8)
        #expect(abs(Int(grey.image.pixel(x: 5, y: 5).r) - 128) <= 1)
        #expect(greyAlpha.image.pixelFormat == .rgba8)
        let pixel = greyAlpha.image.pixel(x: 5, y: 5)
        #expect(abs(Int(pixel.r) - 128) <= 1 && pixel.r == pixel.g && pixel.g == pixel.b)
        #expect(abs(Int(pixel.a) - 128) <= 1)
    }

    @Test func decodesGreyCarryingAnRGBProfile() async throws {
        // Given a grey JPEG (value 102) that embeds an RGB-class sRGB profile
        let data = try await Self.fixture("grey-srgb-icc.jpg")

        // When decoded as a thumbnail and at full size, Then it does not fail and keeps its grey value
        for options in [DecodingOptions(), DecodingOptions(thumbnail: .init(maxPixelSize: 8))] {
            let decoded = try await decoder.decode(data, options: options)
            let pixel = decoded.image.pixel(x: 2, y: 2)
            #expect(abs(Int(pixel.r) - 102) <= 3 && abs(Int(pixel.g) - 102) <= 3 && abs(Int(pixel.b) - 102) <= 3)
        }
    }

    @Test func keepsUntaggedPrimariesExact() async throws {
        // Given an untagged RGB PNG of pure primaries (libvips issue 3479 recolours these when exporting sRGB
        // without an import profile)
        let data = try await Fixtures.caseFile("inputs/untagged-primaries.png")

        // When decoded at full size
        let decoded = try await decoder.decode(data, options: DecodingOptions())

        // Then the four quadrants are exactly red, green, blue and white-or-primary as stored
        let corners = [
            decoded.image.pixel(x: 16, y: 12), decoded.image.pixel(x: 48, y: 12), decoded.image.pixel(x: 16, y: 36),
        ]
        let channels = corners.flatMap { [$0.r, $0.g, $0.b] }
        #expect(channels.allSatisfy { $0 == 0 || $0 == 255 }, "\(corners)")
    }
}
