import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// An embedded ICC profile that does not fit the image (another colour space than the pixels, or one that does not
/// parse) is ignored, as browsers ignore it: the picture is the same as without any profile, with a diagnostic.
/// Fixtures: Tests/Fixtures/vips/quad-* (four quadrants, red, green, blue, yellow; see the README there).
@Suite(.timeLimit(scaledMinutes: 1))
struct ProfileFitTests {
    static func fixture(_ name: String) async throws -> Data {
        try await Fixtures.read(Fixtures.root.appendingPathComponent("vips").appendingPathComponent(name))
    }

    @Test(
        arguments: [
            ("quad-rgb-cmyk-icc.jpg", "quad-rgb.jpg", "ignored an embedded ICC profile (CMYK) that does not parse"),
            ("quad-rgb-broken-icc.jpg", "quad-rgb.jpg", "ignored an embedded ICC profile that does not parse"),
            ("quad-cmyk-grey-icc.jpg", "quad-cmyk.jpg", "ignored an embedded GRAY ICC profile on CMYK data"),
            ("quad-rgb-grey-icc.png", "quad-rgb.png", nil),
        ] as [(String, String, String?)])
    func decodesLikeTheSameImageWithoutAProfile(file: String, reference: String, diagnostic: String?) async throws {
        // Given an image whose profile does not fit, and the same image without any profile
        let data = try await Self.fixture(file)
        let plain = try await Self.fixture(reference)
        let diagnostics = Diagnostics()
        let decoder = VipsDecoder(onDiagnostic: diagnostics.append)

        for options in [DecodingOptions(), DecodingOptions(thumbnail: .init(maxPixelSize: 32))] {
            // When both are decoded
            let decoded = try await decoder.decode(data, options: options)
            let expected = try await VipsDecoder().decode(plain, options: options)

            // Then the pictures are the same: the profile was dropped, never applied
            #expect(decoded.image == expected.image, "\(file)")
            #expect(decoded.info == expected.info, "\(file)")
        }
        // And each decode said so (libpng drops a grey profile on an RGB PNG itself: nothing to say then)
        if let diagnostic {
            #expect(
                diagnostics.lines.count == 2 && diagnostics.lines.allSatisfy { $0.contains(diagnostic) },
                "\(diagnostics.lines)")
        } else {
            #expect(diagnostics.lines.isEmpty, "\(diagnostics.lines)")
        }
    }

    @Test func keepsTheQuadrantColoursOfAnRGBImageWithAGreyProfile() async throws {
        // Given the quadrant JPEG with case S11a's grey profile written into it
        var bytes = [UInt8](try await Self.fixture("quad-rgb.jpg"))
        let s11 = [UInt8](try await SecondCaseSetTests.input("s11-rgb-jpeg-gray-profile.jpg"))
        let app2 = try #require((2..<s11.count - 1).first { s11[$0] == 0xFF && s11[$0 + 1] == 0xE2 })
        let length = Int(s11[app2 + 2]) << 8 | Int(s11[app2 + 3])
        bytes.insert(contentsOf: s11[app2..<(app2 + 2 + length)], at: 2)

        // When it is decoded at full size, Then red stays red, green green, blue blue and yellow yellow
        let decoded = try await VipsDecoder().decode(Data(bytes), options: DecodingOptions())
        SecondCaseSetTests.expectQuadrants(decoded.image, width: 64, height: 48, "quad with a grey profile")
    }

    @Test func stillAppliesAProfileThatFits() async throws {
        // Given a JPEG tagged Display P3 whose stored values (234, 51, 35) are sRGB's red in P3
        let data = try await Fixtures.caseFile("inputs/p3-red.jpg")

        // When decoded, Then the profile was applied: about (255, 0, 0), not the stored values taken as sRGB
        let decoded = try await VipsDecoder().decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 16)))
        let pixel = decoded.image.pixel(x: 8, y: 8)
        #expect(pixel.r >= 243 && pixel.g <= 12 && pixel.b <= 12, "\(pixel)")
    }
}
