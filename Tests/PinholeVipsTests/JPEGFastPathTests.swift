import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// The TurboJPEG fast path against the libvips path: it is taken exactly for plain JPEGs, and gives the same size
/// and the same look (PSNR ≥ 35 dB) on every corpus photo and every fixture it takes.
@Suite(.timeLimit(scaledMinutes: 3))
struct JPEGFastPathTests {
    /// A pool of its own: this suite's ~250 decodes must not queue ahead of other suites' on the shared
    /// `.cpu` pool (under ThreadSanitizer they take minutes and would trip those suites' time limits).
    static let pool = WorkerThreadPool(threadCount: 2, name: "fast-path-tests")
    let fast = VipsDecoder(pool: pool, jpegFastPath: true)
    let libvips = VipsDecoder(pool: pool, jpegFastPath: false)
    static let minimumPSNR = 35.0

    /// Every corpus file (JPEG or not: for the others both paths must agree trivially); empty without a corpus.
    static let corpusPhotos: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: CorpusTests.corpus.path)) ?? []
        return names.filter { name in [".jpg", ".png", ".webp"].contains { name.hasSuffix($0) } }.sorted()
    }()

    /// Every fixture input the fast path takes.
    static let eligibleFixtures: [String] = {
        let inputs = Fixtures.cases.appendingPathComponent("inputs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: inputs.path)) ?? []
        return names.sorted().filter { name in
            guard let data = try? Data(contentsOf: inputs.appendingPathComponent(name)) else { return false }
            return VipsDecoder.isJPEGFastPathEligible(data)
        }
    }()

    /// Peak signal-to-noise ratio of `a` against `b` over every byte, in dB (infinity when identical).
    static func psnr(_ a: PixelImage, _ b: PixelImage) -> Double {
        var sum = 0.0
        for (x, y) in zip(a.pixels, b.pixels) {
            let difference = Double(x) - Double(y)
            sum += difference * difference
        }
        let mse = sum / Double(max(1, a.pixels.count))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    func expectSameLook(_ data: Data, maxPixelSize: Int, upscales: Bool = false, name: String) async throws {
        let options = DecodingOptions(
            thumbnail: ThumbnailOptions(maxPixelSize: maxPixelSize, allowsUpscaling: upscales))
        let viaLibvips: DecodedImage
        do {
            viaLibvips = try await libvips.decode(data, options: options)
        } catch let error as PinholeError {
            // Data libvips rejects (a truncated file) fails the same way on the fast path.
            await #expect { _ = try await fast.decode(data, options: options) } throws: { fastError in
                (fastError as? PinholeError)?.code == error.code
            }
            return
        }
        let viaFastPath = try await fast.decode(data, options: options)
        #expect(viaFastPath.info == viaLibvips.info, "\(name)")
        #expect(viaFastPath.image.width == viaLibvips.image.width, "\(name)")
        #expect(viaFastPath.image.height == viaLibvips.image.height, "\(name)")
        #expect(viaFastPath.image.pixelFormat == viaLibvips.image.pixelFormat, "\(name)")
        let psnr = Self.psnr(viaFastPath.image, viaLibvips.image)
        #expect(psnr >= Self.minimumPSNR, "\(name) at \(maxPixelSize) px: PSNR \(psnr) dB")
    }

    @Test(arguments: corpusPhotos)
    func corpusPhotoLooksTheSameOnBothPaths(file: String) async throws {
        // Given a real photo from the corpus
        let data = try await Fixtures.read(CorpusTests.corpus.appendingPathComponent(file))
        // When thumbnailed to 360 px on both paths, Then sizes match and the pictures agree (PSNR ≥ 35 dB)
        try await expectSameLook(data, maxPixelSize: 360, name: file)
    }

    @Test(arguments: eligibleFixtures)
    func fixtureLooksTheSameOnBothPaths(file: String) async throws {
        // Given a fixture the fast path takes
        let data = try await Fixtures.caseFile("inputs/\(file)")
        // When thumbnailed at several sizes on both paths, Then sizes match and the pictures agree
        for size in [1, 37, 60, 256, 360] {
            try await expectSameLook(data, maxPixelSize: size, name: file)
        }
        // And enlarged past its own size, when the caller allows it
        try await expectSameLook(data, maxPixelSize: 700, upscales: true, name: "\(file) enlarged")
    }

    @Test(arguments: [
        ("baseline.jpg", true), ("progressive.jpg", true), ("large-4096x4096.jpg", true),
        ("large-progressive-4096x4096.jpg", true), ("orient-6.jpg", true),
        ("cmyk-adobe.jpg", false), ("ycck.jpg", false), ("p3-red.jpg", false), ("png-as-jpg.jpg", false),
        ("webp-as-jpg.jpg", false),
    ])
    func takesTheFastPathOnlyForPlainJPEGs(file: String, eligible: Bool) async throws {
        // Given a fixture: plain baseline/progressive YCbCr, or CMYK, YCCK, Display P3, not a JPEG
        let data = try await Fixtures.caseFile("inputs/\(file)")
        // When its header is judged, Then only the plain YCbCr JPEGs take the fast path
        #expect(VipsDecoder.isJPEGFastPathEligible(data) == eligible)
    }

    @Test func takesTheFastPathForTheCorpusPlainJPEGsButNotItsCMYK() async throws {
        let corpus = CorpusTests.corpus
        try #require(FileManager.default.fileExists(atPath: corpus.path), "no photo corpus: run `make corpus`")
        for (file, eligible) in [
            ("kleiber-20mp.jpg", true), ("kde-path-4mp-progressive.jpg", true), ("kde-grey-4mp.jpg", true),
            ("friends-6mp-exif-rot6.jpg", true), ("kde-colorfulcups-4mp-cmyk.jpg", false),
        ] {
            let data = try await Fixtures.read(corpus.appendingPathComponent(file))
            #expect(VipsDecoder.isJPEGFastPathEligible(data) == eligible, "\(file)")
        }
    }

    @Test(arguments: 1...8)
    func decodesAllEightOrientationsUprightOnTheFastPath(orientation: Int) async throws {
        // Given a 120×80 (displayed) JPEG stored with EXIF orientation N, which the fast path takes
        let data = try await Fixtures.caseFile("inputs/orient-\(orientation).jpg")
        #expect(VipsDecoder.isJPEGFastPathEligible(data))

        // When it is thumbnailed to 60 px on the fast path
        let small = try await fast.decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 60)))

        // Then it is upright and landscape
        #expect(small.info.orientation == orientation)
        #expect((small.image.width, small.image.height) == (60, 40))
        OrientationTests.expectUprightQuadrants(small.image)
    }

    @Test func truncatedJPEGFailsAsTruncatedOnTheFastPath() async throws {
        // Given a baseline JPEG cut at 55 % (its header is intact, so the fast path takes it)
        let data = try await Fixtures.caseFile("inputs/baseline-truncated-55pct.jpg")
        #expect(VipsDecoder.isJPEGFastPathEligible(data))

        // When thumbnailed, Then it fails as truncated: never a grey-filled success
        await #expect {
            _ = try await fast.decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 64)))
        } throws: { error in
            (error as? PinholeError)?.code == .truncated
        }
    }
}
