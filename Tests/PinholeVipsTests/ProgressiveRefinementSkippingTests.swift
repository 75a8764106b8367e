import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// Progressive JPEGs decoded at 1/4 scale without their last-bit AC refinement scans: an approximation with a bar
/// (thumbnails ≥ 45 dB PSNR from the whole-file decode's, issue 15), taken only where it applies, and never in the
/// way of truncation, orientation or the exact path when it is switched off.
@Suite(.timeLimit(scaledMinutes: 4))
struct ProgressiveRefinementSkippingTests {
    static let pool = ProgressiveDCOnlyTests.pool
    let skipping = VipsDecoder(pool: pool)
    let everyScan = VipsDecoder(pool: pool, progressiveDCOnly: false, progressiveRefinementSkipping: false)

    /// The bar: issue 15's PSNR against the whole-file decode.
    static let minimumPSNR = 45.0

    /// The largest `maxPixelSize` whose thumbnail of `data` the fast path decodes at 1/4 without last-bit
    /// refinements: the shortest resize after the decode (about 1.4×), where the error is largest. `nil` when no
    /// size takes that route (a file without last-bit refinement scans).
    static func worstSize(_ data: Data) async throws -> Int? {
        try await pool.run {
            let info = try VipsDecoder.readInfoSynchronously(data)
            let long = max(info.width, info.height)
            let start = Int(Double(long) / 4 / VipsDecoder.headroom)
            for size in stride(from: start + 2, through: max(1, start - 12), by: -1) {
                let staged = try VipsDecoder.StagedThumbnail(data, maxPixelSize: size)
                if staged.route == .withoutLastBitRefinements { return size }
            }
            return nil
        }
    }

    func expectCloseToEveryScan(_ data: Data, name: String) async throws {
        let size = try await Self.worstSize(data)
        // Given the largest thumbnail size that decodes at 1/4 (a file with no last-bit refinement scan has none:
        // then the route declines and every size gives TurboJPEG's pixels)
        guard let size else {
            #expect(try VipsDecoder.oneQuarterScaleDecode(data, skippingRefinements: true) == nil, "\(name)")
            return
        }
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: size))
        // When it is thumbnailed without the last-bit refinements and from every scan
        let fewer = try await skipping.decode(data, options: options)
        let all = try await everyScan.decode(data, options: options)
        // Then the thumbnails have the same size and header, and are within the bar
        #expect(fewer.info == all.info, "\(name)")
        #expect(fewer.image.width == all.image.width && fewer.image.height == all.image.height, "\(name)")
        #expect(fewer.image.pixelFormat == all.image.pixelFormat, "\(name)")
        let psnr = JPEGFastPathTests.psnr(fewer.image, all.image)
        #expect(psnr >= Self.minimumPSNR, "\(name) at \(size) px: PSNR \(psnr) dB")
    }

    @Test(arguments: ProgressiveDCOnlyTests.progressiveCorpusPhotos)
    func corpusPhotoThumbnailIsWithinTheBar(file: String) async throws {
        // Given a progressive photo of the corpus
        let data = try await Fixtures.read(CorpusTests.corpus.appendingPathComponent(file))
        try await expectCloseToEveryScan(data, name: file)
    }

    @Test(arguments: ProgressiveDCOnlyTests.progressiveFixtures)
    func fixtureThumbnailIsWithinTheBar(path: String) async throws {
        // Given a progressive fixture (colour 4:4:4 and 4:2:0, grey, EXIF-rotated)
        let data = try await Fixtures.read(URL(fileURLWithPath: path))
        try await expectCloseToEveryScan(data, name: path)
    }

    @Test func everyProgressiveCorpusPhotoTakesTheRoute() async throws {
        // Given the progressive photos of the corpus
        try #require(Self.progressiveCorpusPhotosCount >= 10, "no photo corpus: run `make corpus`")
        // When each is asked for its 1/4 decode without last-bit refinements
        var taken = 0
        for file in ProgressiveDCOnlyTests.progressiveCorpusPhotos {
            let data = try await Fixtures.read(CorpusTests.corpus.appendingPathComponent(file))
            let image = try await Self.pool.run {
                try VipsDecoder.oneQuarterScaleDecode(data, skippingRefinements: true)
            }
            if image != nil { taken += 1 }
        }
        // Then every one takes it (each ends in last-bit refinements, as libjpeg's default script does)
        #expect(taken == Self.progressiveCorpusPhotosCount, "\(taken) of \(Self.progressiveCorpusPhotosCount)")
    }

    static var progressiveCorpusPhotosCount: Int { ProgressiveDCOnlyTests.progressiveCorpusPhotos.count }

    @Test func largeProgressiveJPEGAtAQuarterDiffersFromEveryScanOnlyWithinTheBar() async throws {
        // Given a 4096×4096 progressive JPEG whose 512 px thumbnail decodes at 1/4 (1024 px)
        let data = try await Fixtures.caseFile("inputs/large-progressive-4096x4096.jpg")
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 512))
        let route = try await Self.pool.run { try VipsDecoder.StagedThumbnail(data, maxPixelSize: 512).route }
        #expect(route == .withoutLastBitRefinements)
        // When it is thumbnailed with and without the route
        let fewer = try await skipping.decode(data, options: options)
        let all = try await everyScan.decode(data, options: options)
        // Then both are 512×512 and within the bar
        #expect((fewer.image.width, fewer.image.height) == (512, 512))
        #expect((all.image.width, all.image.height) == (512, 512))
        #expect(JPEGFastPathTests.psnr(fewer.image, all.image) >= Self.minimumPSNR)
    }

    @Test func switchedOffTheQuarterScaleDecodeIsTurboJPEGs() async throws {
        // Given a decoder with the route switched off and a photo that would take it
        let data = try await Fixtures.caseFile("inputs/large-progressive-4096x4096.jpg")
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 512))
        let exact = VipsDecoder(pool: Self.pool, progressiveRefinementSkipping: false)
        // When it thumbnails the photo, and TurboJPEG's whole-file 1/4 decode is resized by the same route
        let fromExact = try await exact.decode(data, options: options)
        let fromEveryScan = try await everyScan.decode(data, options: options)
        // Then the pixels are exactly those of every scan
        #expect(fromExact.image == fromEveryScan.image)
    }

    @Test(arguments: 1...8)
    func quarterScaleThumbnailsAreUprightInAllEightOrientations(orientation: Int) async throws {
        // Given a 960×640 (displayed) progressive JPEG stored with EXIF orientation N
        let data = try await Fixtures.read(
            Fixtures.root.appendingPathComponent("progressive/orient-\(orientation)-progressive.jpg"))
        // When it is thumbnailed to 160 px (decoded at 1/4 = 240×160 without its last-bit refinements)
        let route = try await Self.pool.run { try VipsDecoder.StagedThumbnail(data, maxPixelSize: 160).route }
        #expect(route == .withoutLastBitRefinements)
        let small = try await skipping.decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 160)))
        // Then it is upright and landscape
        #expect(small.info.orientation == orientation)
        #expect((small.image.width, small.image.height) == (160, 107))
        OrientationTests.expectUprightQuadrants(small.image)
    }

    /// Lengths at which `large-progressive-4096x4096.jpg` (100 319 bytes) is cut: inside its first DC scan, inside
    /// the DC refinement scan, inside the last luma AC refinement scan (the route leaves it out), right before EOI.
    @Test(arguments: [30_000, 70_000, 100_300, 100_317])
    func truncatedProgressiveJPEGFailsAsTruncated(length: Int) async throws {
        // Given a progressive JPEG cut short
        let whole = try await Fixtures.caseFile("inputs/large-progressive-4096x4096.jpg")
        try #require(whole.count == 100_319)
        let cut = Data(whole.prefix(length))
        // When its 1/4 decode without refinements is asked for, and its 512 px thumbnail (a 1/4 decode)
        // Then the route declines it (never a grey-filled image), and the decoder reports the truncation
        #expect(try VipsDecoder.oneQuarterScaleDecode(cut, skippingRefinements: true) == nil)
        await #expect {
            _ = try await skipping.decode(cut, options: DecodingOptions(thumbnail: .init(maxPixelSize: 512)))
        } throws: { error in
            (error as? PinholeError)?.code == .truncated
        }
    }
}
