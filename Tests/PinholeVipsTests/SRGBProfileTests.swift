import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// An image whose embedded profile is sRGB is decoded as sRGB, with no ICC transform (which changes nothing but
/// costs a pass over every pixel); any other profile is still converted.
@Suite(.timeLimit(scaledMinutes: 2))
struct SRGBProfileTests {
    static let pool = WorkerThreadPool(threadCount: 2, name: "srgb-profile-tests")

    @Test(arguments: ["skimage-chelsea.png", "skimage-astronaut.png"])
    func sRGBTaggedPNGIsDecodedLikeTheSamePixelsUntagged(file: String) async throws {
        // Given a corpus PNG carrying an "sRGB IEC61966-2.1" profile, and the same pixels as an untagged PNG
        let url = CorpusTests.corpus.appendingPathComponent(file)
        try #require(FileManager.default.fileExists(atPath: url.path), "no photo corpus: run `make corpus`")
        let tagged = try await Fixtures.read(url)
        let decoder = VipsDecoder(pool: Self.pool)
        let full = try await decoder.decode(tagged, options: DecodingOptions())
        let untagged = try await VipsEncoder(pool: Self.pool).encode(full.image, options: .init(format: .png))

        // When both are thumbnailed
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 200))
        let (routeConverts, fromTagged, fromUntagged) = try await Self.pool.run {
            (
                try VipsDecoder.StagedThumbnail(tagged, maxPixelSize: 200).convertsColourWithProfiles,
                try decoder.decodeSynchronously(tagged, options: options).image,
                try decoder.decodeSynchronously(untagged, options: options).image
            )
        }

        // Then no ICC transform runs, and the thumbnails are the same image
        #expect(!routeConverts)
        #expect(fromTagged == fromUntagged)
    }

    @Test func aDisplayP3TaggedPNGIsStillConverted() async throws {
        // Given a PNG whose iCCP profile is Display P3
        let data = try await Fixtures.caseFile("inputs/iccp-p3-green.png")
        // When its route is chosen, Then its colours go through the profile
        let converts = try await Self.pool.run {
            try VipsDecoder.StagedThumbnail(data, maxPixelSize: 64).convertsColourWithProfiles
        }
        #expect(converts)
    }
}
