import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// The stage profile's cut of a decode (`pinhole bench thumbnail --stages`) takes the route the decoder takes and,
/// put back together, gives the decoder's pixels: what it times is what runs.
@Suite(.timeLimit(scaledMinutes: 2))
struct StagedThumbnailTests {
    @Test(
        arguments: [
            ("baseline.jpg", 360, VipsDecoder.StagedThumbnail.Route.turboJPEG),
            ("large-progressive-4096x4096.jpg", 360, .dcOnly),
            ("large-progressive-4096x4096.jpg", 512, .withoutLastBitRefinements),
            ("large-progressive-4096x4096.jpg", 1024, .turboJPEG),
            ("orient-6.jpg", 60, .turboJPEG),
            ("cmyk-adobe.jpg", 360, .libvips),
            ("cmyk-adobe.jpg", 8, .libvips),  // loaded at 1/4 (VipsDecoder+JPEGShrink.swift)
            ("webp-lossless-alpha.webp", 32, .libvips),
            ("palette-trns.png", 16, .libvips),
        ] as [(String, Int, VipsDecoder.StagedThumbnail.Route)])
    func stagesPutTogetherGiveTheDecodersPixels(
        file: String, size: Int, route: VipsDecoder.StagedThumbnail.Route
    ) async throws {
        // Given a fixture and a thumbnail size
        let data = try await Fixtures.caseFile("inputs/\(file)")
        // When it is decoded stage by stage, and by the decoder
        let (staged, stagedRoute, decoded) = try await WorkerThreadPool.cpu.run {
            let staged = try VipsDecoder.StagedThumbnail(data, maxPixelSize: size)
            let input = staged.decoderInput()
            try staged.decodeWithoutColour(input)
            let pixels = try staged.decode(input)
            let image = try staged.finish(pixels)
            let decoded = try VipsDecoder().decodeSynchronously(
                data, options: DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: size)))
            return (image, staged.route, decoded.image)
        }
        // Then the route is the expected one and the pixels are the decoder's
        #expect(stagedRoute == route)
        #expect(staged == decoded)
    }
}
