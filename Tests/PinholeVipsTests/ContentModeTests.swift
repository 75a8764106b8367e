import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// Content modes on real images, on both decode paths (TurboJPEG fast path and libvips): exact sizes, the crop
/// where it should be (seen in the pixels), the upscaling rule, EXIF orientation before the box.
@Suite(.timeLimit(scaledMinutes: 3))
struct ContentModeTests {
    static let pool = WorkerThreadPool(threadCount: 2, name: "content-mode-tests")
    static let fast = VipsDecoder(pool: pool, jpegFastPath: true)
    static let libvips = VipsDecoder(pool: pool, jpegFastPath: false)
    /// Both decode paths; for non-JPEG inputs both are the libvips path.
    static let decoders = [("fast path", fast), ("libvips", libvips)]

    static func options(_ width: Int, _ height: Int, _ mode: ThumbnailOptions.ContentMode, up: Bool = false)
        -> DecodingOptions
    {
        DecodingOptions(
            thumbnail: ThumbnailOptions(
                size: PixelSize(width: width, height: height), contentMode: mode, allowsUpscaling: up))
    }

    static func attentionFixture() async throws -> Data {
        try await Fixtures.read(Fixtures.root.appendingPathComponent("vips/attention-right-1200x400.jpg"))
    }

    /// Whether `pixel` is the fixture's saturated patch (red to yellow), not its flat grey (120).
    static func isSaturated(_ pixel: PixelImage.RGBA) -> Bool { pixel.r > 180 && pixel.b < 90 }

    static func isGrey(_ pixel: PixelImage.RGBA) -> Bool {
        [pixel.r, pixel.g, pixel.b].allSatisfy { (105...135).contains($0) }
    }

    static func near(_ pixel: PixelImage.RGBA, _ r: UInt8, _ g: UInt8, _ b: UInt8, tolerance: Int = 40) -> Bool {
        abs(Int(pixel.r) - Int(r)) <= tolerance && abs(Int(pixel.g) - Int(g)) <= tolerance
            && abs(Int(pixel.b) - Int(b)) <= tolerance
    }

    @Test(arguments: [
        (ThumbnailOptions.ContentMode.aspectFit, 200, 200, 200, 150), (.aspectFit, 300, 100, 133, 100),
        (.aspectFill, 200, 200, 267, 200), (.aspectFill, 100, 300, 400, 300),
        (.fill(crop: .centre), 200, 200, 200, 200), (.fill(crop: .attention), 200, 200, 200, 200),
        (.fill(crop: .entropy), 200, 200, 200, 200), (.fill(crop: .attention), 300, 100, 300, 100),
    ])
    func sizesAreExactOnA4by3Photo(mode: ThumbnailOptions.ContentMode, bw: Int, bh: Int, ew: Int, eh: Int)
        async throws
    {
        // Given a 4224×3168 photo from the corpus
        let url = CorpusTests.corpus.appendingPathComponent("dragonfly-13mp.jpg")
        try #require(FileManager.default.fileExists(atPath: url.path), "no corpus at \(CorpusTests.corpus.path)")
        let data = try await Fixtures.read(url)
        for (path, decoder) in Self.decoders {
            // When thumbnailed into the box in this mode
            let decoded = try await decoder.decode(data, options: Self.options(bw, bh, mode))
            // Then the size is exact on both paths
            #expect(
                decoded.image.width == ew && decoded.image.height == eh,
                "\(path): \(decoded.image.width)×\(decoded.image.height)")
            #expect(decoded.info.width == 4224 && decoded.info.height == 3168)
        }
    }

    @Test func centreCropKeepsTheMiddle() async throws {
        // Given a 400×300 JPEG in quadrants (red | green over blue | yellow, boundary at x = 200)
        let data = try await Fixtures.caseFile("inputs/size-key-source.jpg")
        for (path, decoder) in Self.decoders {
            // When filled into 200×200 with a centre crop (scaled to 267×200, 33 px cut from each side)
            let image = try await decoder.decode(data, options: Self.options(200, 200, .fill(crop: .centre))).image
            // Then the red/green boundary (x = 133 in the scaled image) sits at x = 100, not at 133 (left-anchored)
            #expect(image.width == 200 && image.height == 200)
            #expect(Self.near(image.pixel(x: 94, y: 50), 255, 0, 0), "\(path): \(image.pixel(x: 94, y: 50))")
            #expect(Self.near(image.pixel(x: 106, y: 50), 0, 255, 0), "\(path): \(image.pixel(x: 106, y: 50))")
            #expect(Self.near(image.pixel(x: 106, y: 150), 255, 255, 0), "\(path): \(image.pixel(x: 106, y: 150))")
        }
    }

    @Test func boxAppliesToTheImageAsDisplayed() async throws {
        // Given a JPEG stored 80×120 with EXIF orientation 6: displayed 120×80, quadrants red | green / blue | yellow
        let data = try await Fixtures.caseFile("inputs/orient-6.jpg")
        for (path, decoder) in Self.decoders {
            // When filled into 40×40 with a centre crop (scaled to 60×40, 10 px cut from each side)
            let image = try await decoder.decode(data, options: Self.options(40, 40, .fill(crop: .centre))).image
            // Then the displayed quadrants are there, their boundary at x = 20
            #expect(image.width == 40 && image.height == 40)
            #expect(Self.near(image.pixel(x: 14, y: 8), 255, 0, 0), "\(path): \(image.pixel(x: 14, y: 8))")
            #expect(Self.near(image.pixel(x: 26, y: 8), 0, 255, 0), "\(path): \(image.pixel(x: 26, y: 8))")
            #expect(Self.near(image.pixel(x: 14, y: 32), 0, 0, 255), "\(path): \(image.pixel(x: 14, y: 32))")
        }
    }

    @Test(arguments: [ThumbnailOptions.Crop.attention, .entropy])
    func smartCropFindsTheInterestingRegion(crop: ThumbnailOptions.Crop) async throws {
        // Given 1200×400 of flat grey with one saturated patch near the right edge (x 900…1149)
        let data = try await Self.attentionFixture()
        for (path, decoder) in Self.decoders {
            // When filled into 100×100 (scaled to 300×100) with a centre crop and with a smart crop
            let centre = try await decoder.decode(data, options: Self.options(100, 100, .fill(crop: .centre))).image
            let smart = try await decoder.decode(data, options: Self.options(100, 100, .fill(crop: crop))).image
            // Then both are exactly 100×100; the centre crop is all grey, the smart crop holds the patch
            #expect(centre.width == 100 && centre.height == 100 && smart.width == 100 && smart.height == 100)
            #expect(Self.isGrey(centre.pixel(x: 50, y: 50)) && Self.isGrey(centre.pixel(x: 95, y: 50)), "\(path)")
            #expect(Self.isSaturated(smart.pixel(x: 70, y: 50)), "\(path) \(crop): \(smart.pixel(x: 70, y: 50))")
        }
    }

    @Test func neverUpscalesUnlessAsked() async throws {
        // Given a 40×30 PNG in quadrants (red | green / blue | yellow, exact colours)
        let data = try await Fixtures.caseFile("inputs/small-40x30.png")
        let decoder = Self.libvips
        // When fitted or filled into 200×200 without upscaling, Then it keeps its size
        let fit = try await decoder.decode(data, options: Self.options(200, 200, .aspectFit)).image
        let fill = try await decoder.decode(data, options: Self.options(200, 200, .aspectFill)).image
        #expect(fit.width == 40 && fit.height == 30 && fill.width == 40 && fill.height == 30)
        // And a cropped fill keeps the box's aspect at its own scale: the middle 30×30 (x 5…34)
        let cropped = try await decoder.decode(data, options: Self.options(200, 200, .fill(crop: .centre))).image
        #expect(cropped.width == 30 && cropped.height == 30)
        #expect(cropped.pixel(x: 2, y: 7) == .init(r: 255, g: 0, b: 0))
        #expect(cropped.pixel(x: 27, y: 7) == .init(r: 0, g: 255, b: 0))
        // When upscaling is allowed, Then the box is met exactly
        let up = try await decoder.decode(data, options: Self.options(200, 200, .fill(crop: .centre), up: true)).image
        #expect(up.width == 200 && up.height == 200)
    }

    @Test func anUpscaledFillObeysThePixelLimit() async throws {
        // Given a 40×30 image and a fill box allowed to upscale past the pixel limit
        let data = try await Fixtures.caseFile("inputs/small-40x30.png")
        var options = Self.options(20_000, 20_000, .fill(crop: .centre), up: true)
        options.maxPixelCount = 1_000_000
        // When decoded, Then it fails as too many pixels before anything is allocated
        await #expect { _ = try await Self.libvips.decode(data, options: options) } throws: { error in
            (error as? PinholeError)?.code == .tooManyPixels
        }
    }
}

/// The TurboJPEG fast path honours every content mode with the libvips path's result: same size, same crop window
/// (a window off by even a few pixels drops the PSNR far below the bar), same look.
@Suite(.timeLimit(scaledMinutes: 5))
struct ContentModeFastPathTests {
    /// Every corpus JPEG the fast path takes; empty without a corpus.
    static let eligiblePhotos: [String] = JPEGFastPathTests.corpusPhotos.filter { name in
        guard name.hasSuffix(".jpg"),
            let data = try? Data(contentsOf: CorpusTests.corpus.appendingPathComponent(name))
        else { return false }
        return VipsDecoder.isJPEGFastPathEligible(data)
    }

    /// Fit is compared by JPEGFastPathTests; a fill without a crop is the same resize to another size.
    static let modes: [ThumbnailOptions.ContentMode] = [.fill(crop: .centre), .fill(crop: .attention)]

    @Test func theCorpusHasPhotosForTheFastPath() {
        #expect(Self.eligiblePhotos.count >= 40, "run `make corpus` (or set PINHOLE_CORPUS)")
    }

    @Test(arguments: eligiblePhotos)
    func fillAndCropLookTheSameOnBothPaths(file: String) async throws {
        // Given a real photo the fast path takes
        let data = try await Fixtures.read(CorpusTests.corpus.appendingPathComponent(file))
        for mode in Self.modes {
            // When filled into 200×200 on both paths
            let options = ContentModeTests.options(200, 200, mode)
            let fast = try await ContentModeTests.fast.decode(data, options: options).image
            let libvips = try await ContentModeTests.libvips.decode(data, options: options).image
            // Then sizes match and the pictures agree (PSNR ≥ 35 dB): the same window was kept
            #expect(fast.width == libvips.width && fast.height == libvips.height, "\(file) \(mode)")
            let psnr = JPEGFastPathTests.psnr(fast, libvips)
            #expect(psnr >= JPEGFastPathTests.minimumPSNR, "\(file) \(mode): PSNR \(psnr) dB")
        }
    }

    /// Photos whose smart crop moved between the paths when the fast path took it: the entropy crop of
    /// bridge-11mp by 16 px; the attention crop of sunset-12mp once libvips' ORC paths were off (23.6 dB).
    @Test(arguments: [("bridge-11mp.jpg", ThumbnailOptions.Crop.entropy), ("sunset-12mp.jpg", .attention)])
    func smartCropsAreLeftToLibvips(file: String, crop: ThumbnailOptions.Crop) async throws {
        // Given such a photo
        let url = CorpusTests.corpus.appendingPathComponent(file)
        try #require(FileManager.default.fileExists(atPath: url.path), "no corpus at \(CorpusTests.corpus.path)")
        let data = try await Fixtures.read(url)
        // When filled into 200×200 with that crop on both decoders
        let options = ContentModeTests.options(200, 200, .fill(crop: crop))
        let fast = try await ContentModeTests.fast.decode(data, options: options).image
        let libvips = try await ContentModeTests.libvips.decode(data, options: options).image
        // Then both took the libvips path: the very same pixels
        #expect(fast == libvips)
    }
}
