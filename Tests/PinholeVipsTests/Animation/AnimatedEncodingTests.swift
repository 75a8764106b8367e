import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// `VipsEncoder` as an `AnimatedImageEncoding`: frames decoded from a real animation, written as GIF and WebP, read
/// back with their count, durations, loop count and pixels.
@Suite(.timeLimit(scaledMinutes: 1))
struct AnimatedEncodingTests {
    /// The 60 frames of `sixty.gif` at 32 px: frame i is grey i × 4 with a white bar at column i / 2.
    static func sixtyFrames() async throws -> [PixelImage] {
        let data = try await AnimatedDecodingTests.fixture("sixty.gif")
        var options = DecodingOptions()
        options.thumbnail = ThumbnailOptions(maxPixelSize: 32)
        return try await VipsDecoder().decodeFrames(data, range: 0..<60, options: options).frames
    }

    /// The grey of the frame's bottom-right pixel (the bar never reaches it).
    static func grey(_ frame: PixelImage) -> Int { Int(frame.pixel(x: frame.width - 1, y: frame.height - 1).g) }

    @Test(arguments: [ImageFormat.webp, .gif])
    func framesWrittenAsAnAnimationReadBackWithTheirDurationsLoopCountAndPixels(format: ImageFormat) async throws {
        // Given the 60 frames of a real GIF, every tenth shown for 200 ms and the others for 40 ms
        let frames = try await Self.sixtyFrames()
        let durations = (0..<60).map { Duration.milliseconds($0 % 10 == 0 ? 200 : 40) }
        // When they are written as an animation that plays twice
        let data = try await VipsEncoder().encodeAnimation(
            frames, durations: durations, loopCount: 2, options: EncodingOptions(format: format, quality: 90))
        // Then it reads back as 60 frames of the same durations and loop count
        let info = try #require(try await VipsDecoder().animationInfo(data, options: DecodingOptions()))
        #expect(info.frameCount == 60 && info.loopCount == 2)
        #expect(info.frameDurations == durations)
        // And each chosen frame keeps its own grey (lossy and palette coding leave a few levels)
        let decoded = try await VipsDecoder().decodeFrames(data, range: 0..<60, options: DecodingOptions()).frames
        #expect(decoded.count == 60 && decoded[0].width == 32 && decoded[0].height == 32)
        for index in [0, 1, 30, 59] {
            let (got, want) = (Self.grey(decoded[index]), Self.grey(frames[index]))
            #expect(abs(got - want) <= 6, "frame \(index): \(got), written as \(want)")
        }
    }

    @Test func aStillGIFIsWrittenForOneImage() async throws {
        let frames = try await Self.sixtyFrames()
        let data = try await VipsEncoder().encode(frames[30], options: EncodingOptions(format: .gif))
        #expect(Array(data.prefix(6)) == Array("GIF89a".utf8))
        #expect(try await VipsDecoder().animationInfo(data, options: DecodingOptions()) == nil)
    }

    @Test func formatsThatCannotAnimateAndMismatchedFramesAreRefused() async throws {
        // Given frames of one size, and one frame of another
        let frames = Array(try await Self.sixtyFrames().prefix(3))
        let other = PixelImage(width: 4, height: 4, pixelFormat: .rgba8, pixels: [UInt8](repeating: 0, count: 64))
        let encoder = VipsEncoder()
        let durations = [Duration](repeating: .milliseconds(100), count: 3)
        // Then JPEG cannot animate, frames of two sizes, one frame, or a missing duration are invalid
        await #expect(throws: PinholeError.self) {
            try await encoder.encodeAnimation(frames, durations: durations, loopCount: 0, options: .init(format: .jpeg))
        }
        for (bad, times) in [([frames[0], frames[1], other], durations), ([frames[0]], [durations[0]]), (frames, [])] {
            do {
                _ = try await encoder.encodeAnimation(
                    bad, durations: times, loopCount: 0, options: .init(format: .webp))
                Issue.record("\(bad.count) frames, \(times.count) durations were encoded")
            } catch let error as PinholeError {
                #expect(error.code == .invalidRequest)
            }
        }
    }
}

extension AnimatedEncodingTests {
    @Test(arguments: [ImageFormat.gif, .webp])
    func durationsAndLoopCountsPastWhatTheFormatHoldsAreClampedNotWrapped(format: ImageFormat) async throws {
        // Given four frames shown 15 ms, 655.36 s, 700 s and 1 s, played 65,536 times
        let frames = Array(try await Self.sixtyFrames().prefix(4))
        let durations: [Duration] = [.milliseconds(15), .milliseconds(655_360), .seconds(700), .seconds(1)]
        // When they are written
        let data = try await VipsEncoder().encodeAnimation(
            frames, durations: durations, loopCount: 65_536, options: EncodingOptions(format: format))
        let info = try #require(try await VipsDecoder().animationInfo(data, options: DecodingOptions()))
        // Then GIF keeps 20 ms (players show 10 ms as 100) and its 655.35 s at most; WebP keeps them all
        let expected: [Duration] =
            format == .gif
            ? [.milliseconds(20), .milliseconds(655_350), .milliseconds(655_350), .seconds(1)] : durations
        #expect(info.frameDurations == expected)
        // And the loop count is the most the format holds, not 0 (forever)
        #expect(info.loopCount == 65_535)
    }
}
