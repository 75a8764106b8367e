import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// Every entry of the failure corpus (Tests/Fixtures/cases/manifest.json), decoded by the real libvips.
///
/// Entries served over HTTP are checked here for what a decoder alone decides (size, pixels, errors); the
/// network behaviour (status codes, redirects, timeouts) belongs to the pipeline tests.
@Suite(.timeLimit(scaledMinutes: 2))
struct ManifestDecodingTests {
    static let entries = Fixtures.manifest.filter { $0.expected.errorKind != "http_status" }

    @Test func manifestIsLoaded() {
        #expect(Fixtures.manifest.count >= 40, "manifest.json should be readable next to the tests")
    }

    @Test(arguments: entries)
    func decodesAsTheManifestSays(_ entry: ManifestEntry) async throws {
        // Given the input file and what the manifest expects of it
        let data = try await Fixtures.caseFile(entry.file)
        let expected = entry.expected
        let decoder = VipsDecoder()

        guard expected.decodes == .yes else {
            // When it is decoded, Then it fails with the manifest's error kind
            let error = await #expect(throws: PinholeError.self) {
                _ = try await decoder.decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 256)))
            }
            #expect(error?.code.kind == expected.errorKind, "\(entry.id): \(String(describing: error))")
            return
        }

        // When it is decoded at full size
        let full = try await decoder.decode(data, options: DecodingOptions())

        // Then the displayed size, alpha, format, frames and pixel samples are as expected
        if let width = expected.width, let height = expected.height {
            #expect(full.image.width == width && full.image.height == height, "\(entry.id) image size")
            #expect(full.info.width == width && full.info.height == height, "\(entry.id) info size")
        }
        if let hasAlpha = expected.hasAlpha {
            #expect(full.image.hasAlpha == hasAlpha, "\(entry.id) alpha")
        }
        if let format = expected.formatDetected {
            #expect(full.info.format.name == format)
        }
        if let frames = expected.frames {
            #expect(full.info.frameCount == frames)
        }
        for sample in expected.pixels ?? [] {
            let pixel = full.image.pixel(x: sample.x, y: sample.y)
            if let rgb = sample.rgb {
                let got = [Int(pixel.r), Int(pixel.g), Int(pixel.b)]
                let worst = zip(got, rgb).map { abs($0 - $1) }.max() ?? 0
                #expect(worst <= sample.tol, "\(entry.id) at (\(sample.x),\(sample.y)): \(got) vs \(rgb)")
            }
            if let alpha = sample.alpha {
                #expect(abs(Int(pixel.a) - alpha) <= sample.tol, "\(entry.id) alpha at (\(sample.x),\(sample.y))")
            }
        }

        // And the header read agrees with the decode
        let info = try await decoder.readInfo(data)
        #expect(info == full.info)

        // And the thumbnail fits the box as the manifest and ThumbnailOptions.fittedSize say
        for thumbnail in (expected.thumbnail.map { [$0] } ?? []) + (expected.requests ?? []) {
            let options = ThumbnailOptions(maxPixelSize: max(thumbnail.box[0], thumbnail.box[1]))
            let small = try await decoder.decode(data, options: DecodingOptions(thumbnail: options))
            let fitted = options.fittedSize(width: full.info.width, height: full.info.height)
            #expect(abs(small.image.width - thumbnail.width) <= 1 && abs(small.image.height - thumbnail.height) <= 1)
            #expect(
                small.image.width == fitted.width && small.image.height == fitted.height,
                "\(entry.id): \(small.image.width)×\(small.image.height) vs fitted \(fitted)")
        }
    }

    @Test(arguments: entries.filter { $0.id.hasPrefix("C33") })
    func thumbnailsALargeJPEGWithTheRightColours(_ entry: ManifestEntry) async throws {
        // Given a 4096×4096 JPEG (baseline or progressive) with four coloured quadrants
        let data = try await Fixtures.caseFile(entry.file)

        // When it is thumbnailed to 256 px (shrink-on-load)
        let small = try await VipsDecoder().decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 256)))

        // Then it is 256×256 and the manifest's samples, scaled into it, have their colours
        #expect((small.image.width, small.image.height) == (256, 256))
        for sample in entry.expected.pixels ?? [] {
            let rgb = try #require(sample.rgb)
            let pixel = small.image.pixel(x: sample.x * 256 / 4096, y: sample.y * 256 / 4096)
            let got = [Int(pixel.r), Int(pixel.g), Int(pixel.b)]
            #expect(zip(got, rgb).allSatisfy { abs($0 - $1) <= sample.tol }, "\(got) vs \(rgb)")
        }
    }
}
