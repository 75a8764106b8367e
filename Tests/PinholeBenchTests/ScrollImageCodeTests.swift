import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

@testable import PinholeBench

/// The code painted into every served image survives what the pipeline does to it (JPEG quality 80, then a
/// 64-pixel thumbnail), and tells apart rows and refreshes that share a photo.
@Suite(.timeLimit(scaledMinutes: 2))
struct ScrollImageCodeTests {
    /// A 600 × 600 noisy "photo" (the code must not depend on a calm background).
    static let square: PixelImage = {
        var generator = SystemRandomNumberGenerator()
        let pixels = (0..<(600 * 600 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return PixelImage(width: 600, height: 600, pixelFormat: .rgb8, pixels: pixels)
    }()

    @Test func readsBackEveryCodeAfterJPEGAndAThumbnail() async throws {
        // Given 40 codes (rows across the whole range, generations 0…63), served as the benchmark serves them
        let images = CodedImages(squares: [Self.square])
        let codes = (0..<40).map { ScrollImageCode(row: $0 * 409 + $0 % 3, generation: $0 * 13 % 64) }
        let decoder = VipsDecoder()

        for code in codes {
            // When each is decoded to the list's 64-pixel thumbnail, and at full size
            let jpeg = try images.jpeg(for: code)
            let thumbnail = try await decoder.decode(jpeg, options: DecodingOptions(thumbnail: .init(maxPixelSize: 64)))
            let full = try await decoder.decode(jpeg, options: DecodingOptions())

            // Then the code read from the pixels is the one painted
            #expect(ScrollImageCode.read(thumbnail.image) == code, "\(code)")
            #expect(ScrollImageCode.read(full.image) == code, "\(code)")
        }
    }

    @Test func parsesTheCodeOfABenchmarkURL() throws {
        let url = try #require(URL(string: "http://127.0.0.1:8080/img/137?v=5"))
        #expect(ScrollImageCode(url: url) == ScrollImageCode(row: 137, generation: 5))
        #expect(ScrollImageCode(url: try #require(URL(string: "http://h/warmup"))) == nil)
    }

    @Test func findsNoCodeInAPictureWithoutOne() {
        // Given the noisy photo, uncoded, and a flat grey picture, Then neither passes the check
        #expect(ScrollImageCode.read(Self.square) == nil)
        let grey = PixelImage(
            width: 64, height: 64, pixelFormat: .rgb8, pixels: Array(repeating: 128, count: 64 * 64 * 3))
        #expect(ScrollImageCode.read(grey) == nil)
    }
}
