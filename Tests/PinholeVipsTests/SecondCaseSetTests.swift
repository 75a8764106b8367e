import Foundation
import Pinhole
import PinholeShared
import PinholeTestSupport
import PinholeVips
import Testing

/// The decoder's cases of the second case set (Tests/Fixtures/cases-s2, issue H): a GIF with trailing zeros, a
/// JPEG "motion photo" that carries a libjpeg warning, and an RGB JPEG with a grey ICC profile. Each is a 640×480
/// picture of four quadrants (red, green, blue, yellow from top-left to bottom-right) thumbnailed to 360 px.
@Suite(.timeLimit(scaledMinutes: 1))
struct SecondCaseSetTests {
    /// `Tests/Fixtures/cases-s2/inputs/<name>`.
    static func input(_ name: String) async throws -> Data {
        try await Fixtures.read(
            Fixtures.root.appendingPathComponent("cases-s2").appendingPathComponent("inputs").appendingPathComponent(
                name))
    }

    /// Expects `image` to be `width`×`height` with the four quadrant centres red, green, blue and yellow (±12).
    static func expectQuadrants(_ image: PixelImage, width: Int, height: Int, _ id: String) {
        #expect(image.width == width && image.height == height, "\(id): \(image.width)×\(image.height)")
        guard image.width == width, image.height == height else { return }
        let centres = [
            (width / 4, height / 4), (3 * width / 4, height / 4), (width / 4, 3 * height / 4),
            (3 * width / 4, 3 * height / 4),
        ]
        let colours: [[Int]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0]]
        for ((x, y), colour) in zip(centres, colours) {
            let pixel = image.pixel(x: x, y: y)
            let got = [Int(pixel.r), Int(pixel.g), Int(pixel.b)]
            #expect(zip(got, colour).allSatisfy { abs($0 - $1) <= 12 }, "\(id) at (\(x),\(y)): \(got) vs \(colour)")
        }
    }

    @Test(arguments: [
        ("S09a", "s09-gif-trailing-zeros.gif"), ("S10b", "s10-motion-photo-warning.jpg"),
        ("S11a", "s11-rgb-jpeg-gray-profile.jpg"),
    ])
    func decodesTheCaseAsTheManifestSays(id: String, file: String) async throws {
        // Given the case's file
        let data = try await Self.input(file)

        // When it is thumbnailed to 360 px, with and without the JPEG fast path
        for decoder in [VipsDecoder(), VipsDecoder(jpegFastPath: false)] {
            let decoded = try await decoder.decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 360)))

            // Then it is 360×270 with its four quadrant colours
            Self.expectQuadrants(decoded.image, width: 360, height: 270, id)
            #expect(decoded.info.width == 640 && decoded.info.height == 480)
        }
    }

    @Test func saysWhenItIgnoresAProfileThatDoesNotFit() async throws {
        // Given the RGB JPEG with a grey ICC profile, and a decoder that collects its diagnostics
        let data = try await Self.input("s11-rgb-jpeg-gray-profile.jpg")
        let diagnostics = Diagnostics()
        let decoder = VipsDecoder(onDiagnostic: diagnostics.append)

        // When it is decoded at full size
        let decoded = try await decoder.decode(data, options: DecodingOptions())

        // Then its colours are kept (taken as sRGB) and one diagnostic names the profile it ignored
        Self.expectQuadrants(decoded.image, width: 640, height: 480, "S11a full size")
        #expect(decoded.image.pixelFormat == .rgb8)
        #expect(diagnostics.lines == ["jpeg: ignored an embedded GRAY ICC profile on RGB data"])
    }
}

/// Collects a decoder's diagnostics (thread-safe).
final class Diagnostics: Sendable {
    private let storage = Locked<[String]>([])

    @Sendable func append(_ line: String) { storage.withLock { $0.append(line) } }

    var lines: [String] { storage.withLock { $0 } }
}
