import Foundation
import PinholeShared
import PinholeTestSupport
import PinholeVips
import Testing

@testable import Pinhole

/// A progressive JPEG with thousands of valid scans (`Tests/Fixtures/scan-bomb`: 80 KB, 2048×2048, 1,891 scans) is
/// a decode-time bomb. TurboJPEG's decode cannot be stopped, so such a file stays off the fast path
/// (``VipsDecoder/fastPathScanLimit``), and the libvips path's time limit stops it.
@Suite(.timeLimit(scaledMinutes: 2))
struct ManyScanJPEGTests {
    static func bomb() async throws -> Data {
        try await Fixtures.read(Fixtures.root.appendingPathComponent("scan-bomb/many-scans-2048.jpg"))
    }

    /// The thumbnail sizes that take each fast-path route on a 2048 px source: the DC-only decode at 1/8 (256),
    /// the one without last-bit refinements at 1/4 (400) and TurboJPEG's whole-file decode at 1/2 (1,200).
    static let sizes = [256, 400, 1_200]

    @Test func scansAreCountedByTheMarkerWalkAndAFileWithThousandsIsNotOnTheFastPath() async throws {
        // Given the bomb and an ordinary progressive JPEG (libjpeg's default script of 10 scans)
        let bomb = try await Self.bomb()
        let ordinary = try await Fixtures.read(
            Fixtures.root.appendingPathComponent("progressive/orient-1-progressive.jpg"))

        // When their scans are counted
        let bombScans = bomb.withUnsafeBytes { JPEGScanFilter.scanCount($0) }
        let ordinaryScans = ordinary.withUnsafeBytes { JPEGScanFilter.scanCount($0) }

        // Then the bomb has its 1,891 and goes the libvips way; the ordinary file keeps the fast path
        #expect(bombScans == 1_891)
        #expect(ordinaryScans == 10)
        #expect(!VipsDecoder.isJPEGFastPathEligible(bomb))
        #expect(VipsDecoder.isJPEGFastPathEligible(ordinary))
    }

    @Test func scanCountOfDataCutShortCountsTheScansThatBegan() {
        // Given a JPEG that ends inside its second scan's data
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x11, 0x22, 0xFF, 0xDA, 0x00, 0x02, 0x33]

        // When its scans are counted, and those of bytes that are not a JPEG
        let cut = bytes.withUnsafeBytes { JPEGScanFilter.scanCount($0) }
        let garbage = [UInt8](repeating: 0x41, count: 16).withUnsafeBytes { JPEGScanFilter.scanCount($0) }

        // Then both scans count, and garbage has no count
        #expect(cut == 2)
        #expect(garbage == nil)
    }

    @Test(arguments: sizes)
    func theBombDecodesWithTheDefaultTimeLimit(size: Int) async throws {
        // Given the bomb (valid: every scan follows the progression rules) and a decoder with the default limit
        let bomb = try await Self.bomb()
        let decoder = VipsDecoder(pool: WorkerThreadPool(threadCount: 1, name: "bomb-default-\(size)"))

        // When it is thumbnailed
        let decoded = try await decoder.decode(
            bomb, options: DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: size)))

        // Then it is the flat grey picture at the size asked
        #expect(decoded.image.width == size && decoded.image.height == size)
        let centre = decoded.image.pixel(x: size / 2, y: size / 2)
        #expect(abs(Int(centre.r) - 128) <= 2 && abs(Int(centre.g) - 128) <= 2 && abs(Int(centre.b) - 128) <= 2)
    }

    @Test(arguments: sizes)
    func theDecodeTimeLimitStopsTheBomb(size: Int) async throws {
        // Given a decoder whose decodes may use 20 ms of CPU time (the bomb needs about half a second)
        let bomb = try await Self.bomb()
        let decoder = VipsDecoder(
            pool: WorkerThreadPool(threadCount: 1, name: "bomb-limit-\(size)"), decodeTimeLimit: .milliseconds(20))

        // When the bomb is thumbnailed
        let outcome = await Result {
            try await decoder.decode(bomb, options: DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: size)))
        }

        // Then the decode was stopped at its limit (TurboJPEG would have decoded it whole, limit or not)
        switch outcome {
        case .success(let decoded):
            Issue.record("decoded to \(decoded.image.width)×\(decoded.image.height) past a 20 ms limit")
        case .failure(let error):
            #expect((error as? PinholeError)?.code == .decodingTimedOut, "\(error)")
        }
    }
}
