import Foundation
import Pinhole
import PinholeVips
import Testing

/// The decode-memory estimate read from headers: what it counts for each kind of codec, and the limits it checks
/// before any pixel is decoded.
@Suite struct MemoryEstimateTests {
    let decoder = VipsDecoder()
    let thumbnail = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 40))

    /// The progressive fixture and the same pixels as a baseline JPEG and as a PNG.
    func sameImageThreeWays() async throws -> (progressive: Data, baseline: Data, png: Data, pixels: Int) {
        let progressive = try await Fixtures.read(
            Fixtures.root.appendingPathComponent("progressive/orient-1-progressive.jpg"))
        let image = try await decoder.decode(progressive, options: DecodingOptions()).image
        let baseline = try await VipsEncoder().encode(image, options: EncodingOptions(format: .jpeg, quality: 90))
        let png = try await VipsEncoder().encode(image, options: EncodingOptions(format: .png))
        return (progressive, baseline, png, image.width * image.height)
    }

    @Test func aBaselineJPEGCountsItsShrunkLoadAndAProgressiveOneItsWholeFrameOfCoefficients() async throws {
        let (progressive, baseline, _, pixels) = try await sameImageThreeWays()
        let baselineEstimate = try await decoder.estimatedMemory(of: baseline, options: thumbnail)
        let progressiveEstimate = try await decoder.estimatedMemory(of: progressive, options: thumbnail)
        // The baseline JPEG (one scan) loads at 1/8 (or so) and holds a sixth of a coefficient buffer beside it:
        // at most 1.5 bytes per source pixel beside its bytes (1 at 4:4:4, measured 0.52)
        #expect(baselineEstimate >= baseline.count)
        #expect(baselineEstimate - baseline.count < pixels * 3 / 2)
        // The progressive one holds every coefficient: 3 bytes per source pixel at least, and 1.5 beside them
        #expect(progressiveEstimate - progressive.count >= 3 * pixels + pixels * 3 / 2)
        #expect(progressiveEstimate - progressive.count > 3 * (baselineEstimate - baseline.count))
    }

    @Test func aPNGCountsItsWholeFrameAndAFullSizeDecodeItsOutput() async throws {
        let (_, baseline, png, pixels) = try await sameImageThreeWays()
        #expect(try await decoder.estimatedMemory(of: png, options: thumbnail) - png.count >= 3 * pixels)
        // A full-size decode holds the output pixels at least (4 bytes each)
        let full = try await decoder.estimatedMemory(of: baseline, options: DecodingOptions())
        #expect(full - baseline.count >= 4 * pixels)
    }

    @Test func theEstimateChecksTheHeadersLimitsAndTheUntrustedFormats() async throws {
        let (_, baseline, png, pixels) = try await sameImageThreeWays()
        var small = thumbnail
        small.maxPixelCount = pixels - 1
        await #expect(throws: PinholeError.self) { _ = try await decoder.estimatedMemory(of: baseline, options: small) }
        var jpegOnly = thumbnail
        jpegOnly.untrustedFormats = [.jpeg]
        let refused = await #expect(throws: PinholeError.self) {
            _ = try await decoder.estimatedMemory(of: png, options: jpegOnly)
        }
        #expect(refused?.code == .unsupportedFormat)
        let garbage = await #expect(throws: PinholeError.self) {
            _ = try await decoder.estimatedMemory(of: Data("<html>no image</html>".utf8), options: thumbnail)
        }
        #expect(garbage?.code == .notAnImage)
    }
}

extension MemoryEstimateTests {
    @Test func aGIFCountsItsFrameAtTheBytesItsLoaderHolds() async throws {
        // Given a flat 2,000 × 2,000 GIF (4 KB: its bytes say nothing of its pixels)
        let gif = try await Fixtures.read(Fixtures.root.appendingPathComponent("vips/flat-2000x2000.gif"))
        // When its estimate is read for a thumbnail
        let estimate = try await decoder.estimatedMemory(of: gif, options: thumbnail)
        // Then it counts at least 14 bytes a frame pixel (`pinhole thumbnail --size 360` peaks 57 MB above a small
        // PNG's run for it: the GIF decoder's frame, libvips' copy and its cache of the last frame)
        #expect(estimate - gif.count >= 14 * 2000 * 2000)
    }

    /// Each 1000×1000 `estimate-*` fixture with the most bytes a pixel a decode of its layout and codec was
    /// measured to hold for a thumbnail (`/usr/bin/time -f %M pinhole thumbnail FILE --size 360` on 4000×4000 and
    /// 7000×7000 versions, over a 2×2 PNG's run; BENCHMARKS.md, "Memory admission"), and what the estimate had
    /// before it counted alpha, lossless WebP, interlaced PNG and baseline JPEGs of several scans.
    @Test(arguments: [
        ("estimate-rgb.png", 1.4, 3), ("estimate-rgba.png", 4.6, 3), ("estimate-lossy.webp", 4.0, 4),
        ("estimate-lossy-rgba.webp", 8.9, 4), ("estimate-lossless.webp", 8.1, 4), ("estimate-rgba.tif", 4.8, 4),
        ("estimate-seqscans-cmyk.jpg", 8.3, 0), ("estimate-progressive-444.jpg", 6.1, 3),
        ("estimate-interlaced-rgba.png", 8.3, 3), ("estimate-rgba.avif", 16.9, 8),
    ])
    func anEstimateCoversWhatTheDecodeOfItsBandsAndCodecWasMeasuredToHold(
        name: String, measuredBytesPerPixel: Double, formerBytesPerPixel: Int
    ) async throws {
        // Given a 1000×1000 image of that layout and codec
        let data = try await Fixtures.read(Fixtures.root.appendingPathComponent("vips/\(name)"))
        let pixels = 1000 * 1000
        // When its estimate is read for a thumbnail
        let loaded = try await decoder.estimatedMemory(of: data, options: thumbnail) - data.count
        // Then it counts at least what was measured (every layout but the opaque PNG and lossy WebP was under it
        // before: a hostile origin could send those to decode far past the budget; a CMYK JPEG of four baseline
        // scans 65 times), and an opaque PNG or lossy WebP is not counted higher than before
        #expect(Double(loaded) >= measuredBytesPerPixel * Double(pixels), "\(loaded) bytes for \(name)")
        if measuredBytesPerPixel <= Double(formerBytesPerPixel) {
            #expect(loaded <= formerBytesPerPixel * pixels + 40 * 40 * 8, "\(loaded) bytes for \(name)")
        }
    }
}
