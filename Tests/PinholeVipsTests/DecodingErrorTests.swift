import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// Bad input gets a clear, typed error, decided as early as possible (sniff, then header, then pixels).
@Suite(.timeLimit(scaledMinutes: 1))
struct DecodingErrorTests {
    let decoder = VipsDecoder()
    let thumbnail = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 256))

    private func kind(of data: Data, options: DecodingOptions? = nil) async -> String? {
        do {
            _ = try await decoder.decode(data, options: options ?? thumbnail)
            return nil
        } catch let error as PinholeError {
            return error.code.kind
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test(arguments: [
        ("inputs/baseline.jpg", 0.55), ("inputs/baseline.jpg", 0.3), ("inputs/interlaced-adam7.png", 0.6),
        ("inputs/untagged-primaries.png", 0.5), ("inputs/webp-lossless-alpha.webp", 0.6),
        ("inputs/progressive.jpg", 0.5), ("inputs/interlaced.gif", 0.6), ("inputs/anim-3frames.gif", 0.5),
        ("inputs/heic-with-thumb.heic", 0.6), ("inputs/tiff-rgba.tif", 0.5), ("inputs/bmp24.bmp", 0.5),
        ("inputs/large-4096x4096.jpg", 0.7),
    ])
    func failsAsTruncatedWhenDataEndsEarly(file: String, keptFraction: Double) async throws {
        // Given a file cut short
        let whole = try await Fixtures.caseFile(file)
        let cut = whole.prefix(Int(Double(whole.count) * keptFraction))

        // When it is decoded, as a thumbnail and at full size
        // Then it fails as truncated: never a grey-filled success
        #expect(await kind(of: cut) == "truncated")
        #expect(await kind(of: cut, options: DecodingOptions()) == "truncated")
    }

    @Test func rejectsAJPEGWhoseHeaderClaimsHugeDimensionsBeforeDecoding() async throws {
        // Given a small JPEG whose SOF0 header is patched to claim 50000×50000
        var data = try await Fixtures.caseFile("inputs/baseline.jpg")
        let bytes = [UInt8](data)
        let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        data.replaceSubrange(sof + 5..<sof + 9, with: [0xC3, 0x50, 0xC3, 0x50])

        // When it is decoded, Then it is refused from the header
        #expect(await kind(of: data) == "too_many_pixels")
    }

    @Test func appliesTheCallersPixelLimitToOneFrame() async throws {
        // Given a 256×192 JPEG and a 3-frame 64×48 GIF
        let jpeg = try await Fixtures.caseFile("inputs/baseline.jpg")
        let gif = try await Fixtures.caseFile("inputs/anim-3frames.gif")

        // When the limit is just below / exactly at one frame's pixels
        // Then below fails and at passes (frames are not summed)
        #expect(await kind(of: jpeg, options: DecodingOptions(maxPixelCount: 256 * 192 - 1)) == "too_many_pixels")
        #expect(await kind(of: jpeg, options: DecodingOptions(maxPixelCount: 256 * 192)) == nil)
        #expect(await kind(of: gif, options: DecodingOptions(maxPixelCount: 64 * 48)) == nil)
    }

    @Test func capsTheFrameCountOfAnimations() async throws {
        // Given a 3-frame GIF
        let gif = try await Fixtures.caseFile("inputs/anim-3frames.gif")

        // When the frame limit is 2, Then it fails; at 3 it gives the first frame and reports 3 frames
        #expect(await kind(of: gif, options: DecodingOptions(maxFrameCount: 2)) == "too_many_frames")
        let decoded = try await decoder.decode(gif, options: DecodingOptions(maxFrameCount: 3))
        #expect(decoded.info.frameCount == 3)
        #expect(decoded.image.width == 64 && decoded.image.height == 48)
    }

    @Test(arguments: [
        ("<!DOCTYPE html><html><body>Not found</body></html>", "not_an_image", "HTML"),
        ("{\"error\": \"rate limited\"}", "not_an_image", "JSON"),
        ("just some words", "not_an_image", "text"),
    ])
    func reportsWhatNonImageDataLooksLike(body: String, expectedKind: String, detected: String) async throws {
        // Given text served in place of an image
        let data = Data(body.utf8)

        // When it is decoded, Then the error names what it looks like
        let error = await #expect(throws: PinholeError.self) {
            _ = try await decoder.decode(data, options: thumbnail)
        }
        #expect(error?.code.kind == expectedKind)
        #expect(error?.detectedType == detected)
    }

    @Test func reportsEmptyDataAndUnknownBinaryFormats() async throws {
        // Given no bytes, and binary bytes of no known image format (a gzip header)
        // When decoded, Then empty data and an unsupported format that shows the bytes
        #expect(await kind(of: Data()) == "empty_data")
        let gzip = Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xFF, 0x00])
        let error = await #expect(throws: PinholeError.self) {
            _ = try await decoder.decode(gzip, options: thumbnail)
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains("1f 8b") == true)
    }

    @Test(
        arguments: [
            [0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array("RIFF\0\0\0\0WEBP".utf8),
            Array("GIF89a".utf8),
        ] as [[UInt8]])
    func failsCleanlyOnGarbageAfterAValidMagic(magic: [UInt8]) async throws {
        // Given a valid signature followed by garbage
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<4000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let data = Data(magic + garbage)

        // When it is decoded, Then it fails with a decoder error carrying libvips' words, never a crash
        let error = await #expect(throws: PinholeError.self) {
            _ = try await decoder.decode(data, options: thumbnail)
        }
        #expect(["decoding_failed", "truncated", "unsupported_format"].contains(error?.code.kind ?? ""))
        #expect(error?.message.isEmpty == false)
    }

    @Test func refusesAnUpscaledResultOverThePixelLimit() async throws {
        // Given a 40×30 PNG and a request to upscale it into an enormous box
        let data = try await Fixtures.caseFile("inputs/small-40x30.png")
        let huge = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: Int.max / 2, allowsUpscaling: true))

        // When it is decoded, Then it is refused (no crash, no giant allocation)
        #expect(await kind(of: data, options: huge) == "too_many_pixels")
    }

    @Test func readsABombsHeaderWithoutDecodingIt() async throws {
        // Given a PNG whose header declares 50000×50000 (2.5 gigapixels)
        let data = try await Fixtures.caseFile("inputs/bomb-png-50000x50000.png")

        // When only its header is read, Then the declared size is reported (no pixels are decoded)
        let info = try await decoder.readInfo(data)
        #expect(info == DecodedImage.SourceInfo(format: .png, width: 50000, height: 50000))

        // And a decode is refused before any pixel is touched, even without a thumbnail
        #expect(await kind(of: data, options: DecodingOptions()) == "too_many_pixels")
    }
}
