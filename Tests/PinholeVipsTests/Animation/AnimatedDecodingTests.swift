import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// `VipsDecoder` as an `AnimatedImageDecoding`: the header's frame facts, and frames composed as the animation
/// shows them (GIF disposal, WebP blending), at the thumbnail size. Fixtures: scripts/make-animation-fixtures.sh.
@Suite(.timeLimit(scaledMinutes: 1))
struct AnimatedDecodingTests {
    static let full = DecodingOptions()

    static func fixture(_ name: String) async throws -> Data {
        try await Fixtures.read(Fixtures.root.appendingPathComponent("animation/\(name)"))
    }

    static func rgb(_ pixel: PixelImage.RGBA) -> [UInt8] { [pixel.r, pixel.g, pixel.b] }

    @Test func aGIFHeaderGivesItsFrameCountDurationsAndLoopCount() async throws {
        // Given the 4-frame GIF whose delays are 100, 200, 50 and 10 ms, looping forever
        let data = try await Self.fixture("disposal.gif")
        // When its animation facts are read
        let info = try #require(try await VipsDecoder().animationInfo(data, options: Self.full))
        // Then they are the header's, the 10 ms delay shown for 100 ms as browsers do
        #expect(info.frameCount == 4)
        #expect(info.frameDurations == [.milliseconds(100), .milliseconds(200), .milliseconds(50), .milliseconds(100)])
        #expect(info.loopCount == 0)
    }

    @Test func aWebPHeaderGivesItsFrameCountDurationsAndLoopCount() async throws {
        let data = try await Self.fixture("blend.webp")
        let info = try #require(try await VipsDecoder().animationInfo(data, options: Self.full))
        #expect(info.frameCount == 3)
        #expect(info.frameDurations == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        #expect(info.loopCount == 3)
    }

    @Test func aStillImageHasNoAnimation() async throws {
        // Given a one-frame GIF, and a PNG
        let still = try await Fixtures.caseFile("inputs/interlaced.gif")
        let pixels = PixelImage(width: 8, height: 8, pixelFormat: .rgb8, pixels: [UInt8](repeating: 90, count: 192))
        let png = try await VipsEncoder().encode(pixels, options: EncodingOptions(format: .png))
        // Then neither reports an animation
        #expect(try await VipsDecoder().animationInfo(still, options: Self.full) == nil)
        #expect(try await VipsDecoder().animationInfo(png, options: Self.full) == nil)
    }

    @Test func gifFramesFollowTheirDisposalModes() async throws {
        // Given the GIF: red; green 4×4 at (0,0) disposed to the background; blue 4×4 at (4,4) disposed to the
        // previous canvas; yellow 2×2 at (6,0)
        let data = try await Self.fixture("disposal.gif")
        // When all its frames are decoded at full size
        let decoded = try await VipsDecoder().decodeFrames(data, range: 0..<4, options: Self.full)
        // Then each frame is the whole 8×8 canvas as a browser shows it
        try #require(decoded.frames.count == 4)
        #expect(!decoded.endsEarly)
        #expect(decoded.frames.allSatisfy { $0.width == 8 && $0.height == 8 })
        let (f0, f1, f2, f3) = (decoded.frames[0], decoded.frames[1], decoded.frames[2], decoded.frames[3])
        #expect(Self.rgb(f0.pixel(x: 1, y: 1)) == [255, 0, 0] && Self.rgb(f0.pixel(x: 6, y: 6)) == [255, 0, 0])
        #expect(Self.rgb(f1.pixel(x: 1, y: 1)) == [0, 255, 0] && Self.rgb(f1.pixel(x: 6, y: 6)) == [255, 0, 0])
        // frame 2: frame 1's area was cleared (no green left), the blue square drawn, the rest still red
        #expect(Self.rgb(f2.pixel(x: 1, y: 1)) != [0, 255, 0])
        #expect(Self.rgb(f2.pixel(x: 5, y: 5)) == [0, 0, 255] && Self.rgb(f2.pixel(x: 6, y: 1)) == [255, 0, 0])
        // frame 3: the canvas from before frame 2 (no blue), the yellow square on it
        #expect(Self.rgb(f3.pixel(x: 5, y: 5)) == [255, 0, 0])
        #expect(Self.rgb(f3.pixel(x: 6, y: 0)) == [255, 255, 0] && Self.rgb(f3.pixel(x: 7, y: 1)) == [255, 255, 0])
        #expect(Self.rgb(f3.pixel(x: 1, y: 1)) == Self.rgb(f2.pixel(x: 1, y: 1)))
    }

    @Test func webPFramesAreBlendedOrReplacedAsTheyDeclare() async throws {
        // Given the WebP: opaque red; half-transparent blue 4×4 at (0,0) blended; the same at (4,4) not blended
        let data = try await Self.fixture("blend.webp")
        // When its frames are decoded
        let decoded = try await VipsDecoder().decodeFrames(data, range: 0..<3, options: Self.full)
        try #require(decoded.frames.count == 3)
        let (f0, f1, f2) = (decoded.frames[0], decoded.frames[1], decoded.frames[2])
        #expect(f0.pixelFormat == .rgba8)
        #expect(f0.pixel(x: 1, y: 1) == PixelImage.RGBA(r: 255, g: 0, b: 0, a: 255))
        // Then frame 1 is blue over red, opaque; frame 2 replaced its square with the half-transparent blue
        let blended = f1.pixel(x: 1, y: 1)
        #expect(
            blended.a == 255 && (120...135).contains(blended.r) && blended.g == 0 && (120...135).contains(blended.b))
        let replaced = f2.pixel(x: 5, y: 5)
        #expect(replaced.r == 0 && replaced.g == 0 && replaced.b == 255 && (120...135).contains(replaced.a))
        #expect(f2.pixel(x: 1, y: 1) == blended && f2.pixel(x: 0, y: 7) == f0.pixel(x: 0, y: 7))
    }

    @Test(arguments: ["sixty.gif", "sixty.webp"])
    func framesComeAtTheThumbnailSizeAndARangeMatchesTheWholeRun(name: String) async throws {
        // Given a 60-frame 64×64 animation whose frame i is grey i×4 with a white bar at x = i…i+3
        let data = try await Self.fixture(name)
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 32))
        // When every frame is decoded at 32 px, and frames 10…12 on their own
        let all = try await VipsDecoder().decodeFrames(data, range: 0..<60, options: options)
        let some = try await VipsDecoder().decodeFrames(data, range: 10..<13, options: options)
        // Then every frame is 32×32, frame i shows its own grey, and the range gives the same frames
        try #require(all.frames.count == 60)
        #expect(all.frames.allSatisfy { $0.width == 32 && $0.height == 32 })
        for index in [0, 10, 25, 50] {
            let grey = Int(all.frames[index].pixel(x: 31, y: 16).g)
            #expect(abs(grey - index * 4) <= 3, "frame \(index): grey \(grey)")
        }
        #expect(some.frames == Array(all.frames[10..<13]))
    }
}
