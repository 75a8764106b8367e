import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// The JPEGs the fast path leaves to libvips (CMYK, YCCK, a profile that is not sRGB) are loaded at the fast path's
/// DCT scale, not `vips_thumbnail`'s, so that libvips converts the colour of a quarter of the pixels; the picture
/// stays within the fast path's bar of plain `vips_thumbnail`.
@Suite(.timeLimit(scaledMinutes: 2))
struct JPEGLoadShrinkTests {
    static let pool = WorkerThreadPool(threadCount: 2, name: "jpeg-shrink-tests")

    @Test(arguments: [
        // A 4 MP photo to 360 × 225: 1/4 (640 × 400) still covers 504 × 315; 1/8 (320 × 200) does not.
        (2560, 1600, PixelSize(width: 360, height: 225), 4),
        // 20 MP to 360 × 203: 1/8 (753 × 423, rounded down as libvips does) covers 504 × 285.
        (6028, 3391, PixelSize(width: 360, height: 203), 8),
        // A portrait photo: the short side decides.
        (2560, 3837, PixelSize(width: 240, height: 360), 4),
        // Odd sides: 1/4 drops 1 of 2,561 columns and 1 of 1,601 rows.
        (2561, 1601, PixelSize(width: 360, height: 225), 4),
        // Smaller than 1.4 × the box at 1/2: loaded whole.
        (640, 427, PixelSize(width: 360, height: 240), 1),
        (64, 64, PixelSize(width: 8, height: 8), 4),
        // Narrow images: 1/8 would keep 1 of 12 columns' 1.5 (rounded down), 1/4 keeps all 3.
        (12, 1200, PixelSize(width: 1, height: 100), 4),
        // 1/2 would drop 1 of 7 columns, or 1 of 15: more than 1 % of the picture.
        (7, 1000, PixelSize(width: 1, height: 13), 1),
        (15, 15, PixelSize(width: 5, height: 5), 1),
        (3, 4001, PixelSize(width: 1, height: 13), 1),
    ])
    func picksTheLargestShrinkThatKeepsTheHeadroomAndTheEdges(width: Int, height: Int, box: PixelSize, shrink: Int) {
        // Given an image size and a box, When the load shrink is picked, Then it leaves 1.4 × the box on both sides
        // (sides rounded down) and drops at most 1 % of either side
        #expect(VipsDecoder.jpegLoadShrink(width: width, height: height, box: box) == shrink)
    }

    @Test func narrowCMYKImageKeepsItsLastColumnsWhenShrunkOnLoad() async throws {
        // Given a 12 × 1,200 CMYK JPEG: black, with its last 4 columns white (a third of the picture)
        let data = try await Fixtures.read(Fixtures.root.appendingPathComponent("jpeg-shrink/cmyk-stripe-12x1200.jpg"))
        #expect(!VipsDecoder.isJPEGFastPathEligible(data))

        // When it is thumbnailed to 100 px (1 × 100), and decoded whole
        let (thumbnail, whole) = try await Self.pool.run {
            (
                try VipsDecoder().decodeSynchronously(
                    data, options: DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 100))
                ).image,
                try VipsDecoder().decodeSynchronously(data, options: DecodingOptions()).image
            )
        }

        // Then the thumbnail is as bright on average as the whole picture: the white third is in it (loaded at 1/8,
        // libvips keeps 1 column of 1.5 and the mean falls from 111 to 39)
        #expect((thumbnail.width, thumbnail.height) == (1, 100))
        let mean = { (image: PixelImage) in Double(image.pixels.reduce(0) { $0 + Int($1) }) / Double(image.pixels.count)
        }
        #expect(abs(mean(thumbnail) - mean(whole)) <= 10, "thumbnail \(mean(thumbnail)), whole \(mean(whole))")
    }

    @Test func cmykPhotoIsLoadedAtTheFastPathsScaleNotVipsThumbnails() async throws {
        // Given the corpus' 4 MP CMYK photo (no profile: libvips' fallback CMYK profile), which the fast path declines
        let file = CorpusTests.corpus.appendingPathComponent("kde-colorfulcups-4mp-cmyk.jpg")
        try #require(FileManager.default.fileExists(atPath: file.path), "no photo corpus: run `make corpus`")
        let data = try await Fixtures.read(file)
        #expect(!VipsDecoder.isJPEGFastPathEligible(data))

        // When the decoder thumbnails it to 360 px, and libvips does at 1/4 and at its own scale (1/2)
        let (decoded, atOneQuarter, atVipsScale) = try await Self.pool.run {
            let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 360))
            return (
                try VipsDecoder().decodeSynchronously(data, options: options).image,
                try VipsDecoder.libvipsJPEGThumbnail(data, maxPixelSize: 360, shrink: 4),
                try VipsDecoder.libvipsJPEGThumbnail(data, maxPixelSize: 360, shrink: nil)
            )
        }

        // Then the decoder's pixels are those of the 1/4 load, which differ from libvips' own choice only a little
        #expect((decoded.width, decoded.height, decoded.pixelFormat) == (360, 225, .rgb8))
        #expect(decoded == atOneQuarter)
        #expect(decoded != atVipsScale)
        let psnr = JPEGFastPathTests.psnr(decoded, atVipsScale)
        #expect(psnr >= JPEGFastPathTests.minimumPSNR, "PSNR \(psnr) dB")
    }

    @Test(arguments: [
        ("cases/inputs/cmyk-adobe.jpg", [1, 8, 15, 37]), ("cases/inputs/ycck.jpg", [1, 8, 15, 37]),
        ("cases/inputs/p3-red.jpg", [1, 8, 15, 37]),
        ("cases-s2/inputs/s11-rgb-jpeg-gray-profile.jpg", [20, 60, 120, 200]),
    ])
    func fixtureLeftToLibvipsLooksTheSameAsPlainVipsThumbnail(file: String, sizes: [Int]) async throws {
        // Given a fixture with colour to convert (CMYK, YCCK, Display P3, or a profile that is ignored)
        let data = try await Fixtures.read(Fixtures.root.appendingPathComponent(file))
        #expect(!VipsDecoder.isJPEGFastPathEligible(data))
        for size in sizes {
            // When thumbnailed small enough to be loaded shrunk, by the decoder and by plain vips_thumbnail
            let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: size))
            let (decoded, plain) = try await Self.pool.run {
                (
                    try VipsDecoder().decodeSynchronously(data, options: options),
                    try VipsDecoder(jpegFastPath: false).decodeSynchronously(data, options: options)
                )
            }
            // Then sizes, formats and the picture agree (PSNR ≥ 35 dB)
            #expect(decoded.info == plain.info, "\(file) at \(size) px")
            #expect(decoded.image.width == plain.image.width && decoded.image.height == plain.image.height)
            #expect(decoded.image.pixelFormat == plain.image.pixelFormat, "\(file) at \(size) px")
            let psnr = JPEGFastPathTests.psnr(decoded.image, plain.image)
            #expect(psnr >= JPEGFastPathTests.minimumPSNR, "\(file) at \(size) px: PSNR \(psnr) dB")
        }
    }
}
