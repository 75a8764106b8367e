import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// JPEG, PNG and WebP encoding, checked by decoding the output again with the real libvips.
@Suite(.timeLimit(scaledMinutes: 1))
struct EncoderTests {
    let encoder = VipsEncoder()
    let decoder = VipsDecoder()

    /// A 64×48 image with red, green / blue, yellow quadrants; with alpha, the right half is half-transparent.
    static func quadrants(alpha: Bool = false) -> PixelImage {
        let format: PixelImage.PixelFormat = alpha ? .rgba8 : .rgb8
        var pixels: [UInt8] = []
        for y in 0..<48 {
            for x in 0..<64 {
                let colour: [UInt8] =
                    switch (x < 32, y < 24) {
                    case (true, true): [255, 0, 0]
                    case (false, true): [0, 255, 0]
                    case (true, false): [0, 0, 255]
                    case (false, false): [255, 255, 0]
                    }
                pixels += colour
                if alpha { pixels.append(x < 32 ? 255 : 128) }
            }
        }
        return PixelImage(width: 64, height: 48, pixelFormat: format, pixels: pixels)
    }

    private func expectClose(_ pixel: PixelImage.RGBA, _ rgb: [Int], tolerance: Int, _ comment: Comment? = nil) {
        let got = [Int(pixel.r), Int(pixel.g), Int(pixel.b)]
        let worst = zip(got, rgb).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= tolerance, "\(got) vs \(rgb) \(comment?.description ?? "")")
    }

    @Test(arguments: [(ImageFormat.jpeg, 16), (.png, 0), (.webp, 16)])
    func roundTripsSizeAndColours(format: ImageFormat, tolerance: Int) async throws {
        // Given a four-colour image
        let image = Self.quadrants()

        // When it is encoded and decoded again
        let data = try await encoder.encode(image, options: EncodingOptions(format: format, quality: 90))
        let decoded = try await decoder.decode(data, options: DecodingOptions())

        // Then the format, size and quadrant colours survive
        #expect(decoded.info.format == format)
        #expect((decoded.image.width, decoded.image.height) == (64, 48))
        expectClose(decoded.image.pixel(x: 16, y: 12), [255, 0, 0], tolerance: tolerance)
        expectClose(decoded.image.pixel(x: 48, y: 12), [0, 255, 0], tolerance: tolerance)
        expectClose(decoded.image.pixel(x: 16, y: 36), [0, 0, 255], tolerance: tolerance)
        expectClose(decoded.image.pixel(x: 48, y: 36), [255, 255, 0], tolerance: tolerance)
    }

    @Test(arguments: [ImageFormat.png, .webp])
    func keepsAlphaInFormatsThatHaveIt(format: ImageFormat) async throws {
        // Given an image whose right half is half-transparent
        let image = Self.quadrants(alpha: true)

        // When encoded (lossless PNG, WebP at 100) and decoded
        let data = try await encoder.encode(image, options: EncodingOptions(format: format, quality: 100))
        let decoded = try await decoder.decode(data, options: DecodingOptions())

        // Then alpha is kept
        #expect(decoded.image.pixelFormat == .rgba8)
        #expect(decoded.image.pixel(x: 16, y: 12).a == 255)
        #expect(abs(Int(decoded.image.pixel(x: 48, y: 36).a) - 128) <= 2)
    }

    @Test(arguments: [("inputs/gray-alpha.png", 48, 8), ("inputs/palette-trns.png", 24, 8)])
    func flattensTransparencyOntoWhiteForJPEG(file: String, x: Int, y: Int) async throws {
        // Given a transparent-area image (grey+alpha, palette+tRNS)
        let source = try await decoder.decode(try await Fixtures.caseFile(file), options: DecodingOptions())
        #expect(source.image.pixel(x: x, y: y).a == 0)

        // When saved as JPEG with the default background and decoded
        let jpeg = try await encoder.encode(source.image, options: EncodingOptions(format: .jpeg, quality: 90))
        let decoded = try await decoder.decode(jpeg, options: DecodingOptions())

        // Then the transparent area is white, not black
        #expect(decoded.image.pixelFormat != .rgba8)
        expectClose(decoded.image.pixel(x: x, y: y), [255, 255, 255], tolerance: 3)
    }

    @Test func flattensOntoTheChosenBackground() async throws {
        // Given a fully transparent image
        let clear = PixelImage(width: 8, height: 8, pixelFormat: .rgba8, pixels: [UInt8](repeating: 0, count: 256))

        // When saved as JPEG onto a red background
        let options = EncodingOptions(format: .jpeg, quality: 95, background: .init(r: 255, g: 0, b: 0))
        let decoded = try await decoder.decode(try await encoder.encode(clear, options: options), options: .init())

        // Then it is red
        expectClose(decoded.image.pixel(x: 4, y: 4), [255, 0, 0], tolerance: 8)
    }

    @Test(arguments: [ImageFormat.jpeg, .webp])
    func higherQualityGivesLargerFiles(format: ImageFormat) async throws {
        // Given a noisy image (hard to compress)
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<(128 * 128 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let image = PixelImage(width: 128, height: 128, pixelFormat: .rgb8, pixels: noise)

        // When it is encoded at quality 30 and 95
        let low = try await encoder.encode(image, options: EncodingOptions(format: format, quality: 30))
        let high = try await encoder.encode(image, options: EncodingOptions(format: format, quality: 95))

        // Then the higher quality is larger
        #expect(high.count > low.count)
    }

    @Test func encodesGreyAndPaddedRows() async throws {
        // Given a 3×2 grey image whose rows are padded to 8 bytes
        let pixels: [UInt8] = [0, 128, 255, 9, 9, 9, 9, 9, 255, 128, 0, 9, 9, 9, 9, 9]
        let image = PixelImage(width: 3, height: 2, pixelFormat: .gray8, bytesPerRow: 8, pixels: pixels)

        // When saved as PNG and decoded
        let decoded = try await decoder.decode(
            try await encoder.encode(image, options: .init(format: .png)), options: .init())

        // Then it is the same grey image, packed
        #expect(decoded.image.pixelFormat == .gray8)
        #expect(decoded.image.pixels == [0, 128, 255, 255, 128, 0])
    }

    @Test func refusesFormatsItCannotWrite() async throws {
        // Given a request for BMP output, Then it is refused as unsupported
        let error = await #expect(throws: PinholeError.self) {
            _ = try await encoder.encode(Self.quadrants(), options: EncodingOptions(format: .bmp))
        }
        #expect(error?.code == .unsupportedFormat)
    }
}
