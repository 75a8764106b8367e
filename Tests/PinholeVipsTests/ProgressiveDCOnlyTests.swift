import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// DC-only decoding of progressive JPEGs at 1/8 scale: the same pixels as the whole-file decode, truncation still
/// detected, orientation still applied, and only the AC scans no inverse DCT reads are left out.
@Suite(.timeLimit(scaledMinutes: 3))
struct ProgressiveDCOnlyTests {
    /// A pool of its own, as JPEGFastPathTests has (its decodes must not queue ahead of other suites').
    static let pool = WorkerThreadPool(threadCount: 2, name: "dc-only-tests")
    let dcOnly = VipsDecoder(pool: pool, progressiveDCOnly: true)
    let wholeFile = VipsDecoder(pool: pool, progressiveDCOnly: false)

    /// Every progressive JPEG of the corpus (empty without a corpus), by content.
    static let progressiveCorpusPhotos: [String] = JPEGFastPathTests.corpusPhotos.filter { name in
        guard name.hasSuffix(".jpg"),
            let data = try? Data(contentsOf: CorpusTests.corpus.appendingPathComponent(name))
        else { return false }
        return isProgressive(data)
    }

    /// Every progressive fixture: the cases' and `Tests/Fixtures/progressive`.
    static let progressiveFixtures: [String] = {
        let directories = [
            Fixtures.cases.appendingPathComponent("inputs"), Fixtures.root.appendingPathComponent("progressive"),
        ]
        return directories.flatMap { directory in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.sorted().map { directory.appendingPathComponent($0).path }.filter { path in
                guard let data = FileManager.default.contents(atPath: path) else { return false }
                return isProgressive(data)
            }
        }
    }()

    /// Whether the first frame header is SOF2 (progressive, Huffman).
    static func isProgressive(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(65_536))
        guard bytes.starts(with: [0xFF, 0xD8]) else { return false }
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            if marker == 0xC2 { return true }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) || marker == 0xDA {
                return false
            }
            position += 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]))
        }
        return false
    }

    /// The largest difference between two images' samples (same size and format required).
    static func maxDifference(_ a: PixelImage, _ b: PixelImage) -> Int {
        zip(a.pixels, b.pixels).reduce(0) { worst, pair in max(worst, abs(Int(pair.0) - Int(pair.1))) }
    }

    func expectDCOnlyEqualsWholeFile(_ data: Data, name: String) async throws {
        // When it is decoded at 1/8 scale from its DC scans, and from every scan (TurboJPEG, today's path)
        let (dc, all) = try await Self.pool.run {
            (
                try VipsDecoder.oneEighthScaleDecode(data, dcOnly: true),
                try VipsDecoder.oneEighthScaleDecode(data, dcOnly: false)
            )
        }
        let fromDC = try #require(dc, "\(name): the DC-only path declined it")
        let fromAll = try #require(all, "\(name)")
        // Then both have the same size and format, and no sample differs by more than 1 level
        #expect(fromDC.width == fromAll.width && fromDC.height == fromAll.height, "\(name)")
        #expect(fromDC.pixelFormat == fromAll.pixelFormat, "\(name)")
        #expect(fromDC.pixels.count == fromAll.pixels.count, "\(name)")
        let difference = Self.maxDifference(fromDC, fromAll)
        #expect(difference <= 1, "\(name): samples differ by up to \(difference) levels")
    }

    @Test(arguments: progressiveCorpusPhotos)
    func dcOnlyDecodeOfACorpusPhotoEqualsTheWholeFileDecode(file: String) async throws {
        // Given a progressive photo of the corpus (4:4:4, 4:2:2 and 4:2:0 among them)
        let data = try await Fixtures.read(CorpusTests.corpus.appendingPathComponent(file))
        try await expectDCOnlyEqualsWholeFile(data, name: file)
    }

    @Test(arguments: progressiveFixtures)
    func dcOnlyDecodeOfAFixtureEqualsTheWholeFileDecode(path: String) async throws {
        // Given a progressive fixture (colour 4:4:4 and 4:2:0, grey, EXIF-rotated)
        let data = try await Fixtures.read(URL(fileURLWithPath: path))
        try await expectDCOnlyEqualsWholeFile(data, name: path)
    }

    @Test func theCorpusHasProgressivePhotos() throws {
        let corpus = CorpusTests.corpus.path
        try #require(FileManager.default.fileExists(atPath: corpus), "no photo corpus: run `make corpus`")
        #expect(Self.progressiveCorpusPhotos.count >= 10, "\(Self.progressiveCorpusPhotos)")
        #expect(Self.progressiveFixtures.count >= 10, "\(Self.progressiveFixtures)")
    }

    @Test func thumbnailIsTheSameWithAndWithoutDCOnlyDecoding() async throws {
        // Given a 4096×4096 progressive 4:2:0 JPEG, whose 360 px thumbnail the fast path decodes at 1/8 (512 px)
        let data = try await Fixtures.caseFile("inputs/large-progressive-4096x4096.jpg")
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 360))
        // When it is thumbnailed from its DC scans and from every scan
        let fast = try await dcOnly.decode(data, options: options)
        let slow = try await wholeFile.decode(data, options: options)
        // Then the thumbnails are the same image
        #expect(fast.info == slow.info)
        #expect((fast.image.width, fast.image.height) == (360, 360))
        #expect(Self.maxDifference(fast.image, slow.image) <= 1)
    }

    @Test(arguments: 1...8)
    func dcOnlyThumbnailsAreUprightInAllEightOrientations(orientation: Int) async throws {
        // Given a 960×640 (displayed) progressive JPEG stored with EXIF orientation N
        let data = try await Fixtures.read(
            Fixtures.root.appendingPathComponent("progressive/orient-\(orientation)-progressive.jpg"))
        #expect(try VipsDecoder.oneEighthScaleDecode(data, dcOnly: true) != nil, "DC-only path declined it")
        // When it is thumbnailed to 60 px (decoded at 1/8 = 120×80 from its DC scans)
        let small = try await dcOnly.decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 60)))
        // Then it is upright and landscape
        #expect(small.info.orientation == orientation)
        #expect((small.image.width, small.image.height) == (60, 40))
        OrientationTests.expectUprightQuadrants(small.image)
    }

    /// Lengths at which `large-progressive-4096x4096.jpg` (100 319 bytes) is cut: inside its first DC scan
    /// (2 000, 30 000), inside the first luma AC scan, which the filter leaves out (50 810), inside the DC
    /// refinement scan (70 000), inside the last luma AC refinement scan, left out too (100 300), right before
    /// its EOI marker (100 317) and between EOI's two bytes (100 318).
    @Test(arguments: [2_000, 30_000, 50_810, 70_000, 100_300, 100_317, 100_318])
    func truncatedProgressiveJPEGFailsAsTruncated(length: Int) async throws {
        // Given a progressive JPEG cut short
        let whole = try await Fixtures.caseFile("inputs/large-progressive-4096x4096.jpg")
        try #require(whole.count == 100_319)
        let cut = Data(whole.prefix(length))
        // When it is decoded at 1/8 from its DC scans, or thumbnailed through the decoder
        // Then the DC-only path declines it (never a grey-filled image): cut before its last scan's header, at
        // 100 284, scans are missing, so the file no longer sends every coefficient; cut later, libjpeg warns of
        // the premature end, and data on which libjpeg warns is left to the libvips path, which decides from its
        // own evidence. And the decoder reports the truncation.
        let image = try VipsDecoder.oneEighthScaleDecode(cut, dcOnly: true)
        #expect(image == nil, "the DC-only path returned an image for truncated data")
        await #expect {
            _ = try await dcOnly.decode(cut, options: DecodingOptions(thumbnail: .init(maxPixelSize: 360)))
        } throws: { error in
            (error as? PinholeError)?.code == .truncated
        }
    }

    @Test func declinesAProgressiveJPEGThatDoesNotSendEveryCoefficient() async throws {
        // Given a complete-looking progressive JPEG (EOI and all) whose last scan, the final luma AC refinement
        // (bytes 100 284 ..< 100 317), was removed: libjpeg's whole-file decode smooths such blocks
        let whole = try await Fixtures.caseFile("inputs/large-progressive-4096x4096.jpg")
        try #require(whole.count == 100_319)
        let incomplete = whole.prefix(100_284) + whole.suffix(from: 100_317)
        // When the DC-only path is asked for its 1/8 decode
        let image = try await Self.pool.run { try VipsDecoder.oneEighthScaleDecode(Data(incomplete), dcOnly: true) }
        // Then it declines (the fast path then decodes every scan, as before), and the thumbnail is still made
        #expect(image == nil)
        let thumbnail = try await dcOnly.decode(Data(incomplete), options: .init(thumbnail: .init(maxPixelSize: 360)))
        #expect((thumbnail.image.width, thumbnail.image.height) == (360, 360))
    }
}
