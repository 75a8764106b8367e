import Foundation
import Pinhole
import PinholeShared
import Testing

/// A decoder of fake animations: the bytes `GIF89a` + `anim:N:T` (a GIF's magic, so the pipeline's sniff lets them
/// through) are N frames of 4×4 `gray8`, frame i all `T × 16 + i + 1`
/// (distinct per source tag T and per frame); any other bytes are a still of value 0. Counts frame decodes.
final class FakeAnimationDecoder: AnimatedImageDecoding {
    private let decoded = Locked(0)
    private let asked = Locked<[Range<Int>]>([])

    /// Frames decoded so far (by ``decodeFrames(_:range:options:)``).
    var framesDecoded: Int { decoded.withLock { $0 } }
    /// The ranges ``decodeFrames(_:range:options:)`` was asked for, in order.
    var rangesAsked: [Range<Int>] { asked.withLock { $0 } }

    static func data(frames: Int, tag: Int) -> Data { Data("GIF89aanim:\(frames):\(tag)".utf8) }

    static func value(tag: Int, frame: Int) -> UInt8 { UInt8(tag * 16 + frame + 1) }

    private static func parse(_ data: Data) -> (frames: Int, tag: Int)? {
        let parts = String(decoding: data.dropFirst(6), as: UTF8.self).split(separator: ":")
        guard parts.count == 3, parts[0] == "anim", let frames = Int(parts[1]), let tag = Int(parts[2]) else {
            return nil
        }
        return (frames, tag)
    }

    private static func frame(_ value: UInt8) -> PixelImage {
        PixelImage(width: 4, height: 4, pixelFormat: .gray8, pixels: [UInt8](repeating: value, count: 16))
    }

    func decode(_ data: Data, options: DecodingOptions) async throws -> DecodedImage {
        let parsed = Self.parse(data)
        let image = Self.frame(parsed.map { Self.value(tag: $0.tag, frame: 0) } ?? 0)
        return DecodedImage(
            image: image, info: .init(format: .gif, width: 4, height: 4, frameCount: parsed?.frames ?? 1))
    }

    func animationInfo(_ data: Data, options: DecodingOptions) async throws -> AnimationInfo? {
        guard let (frames, _) = Self.parse(data) else { return nil }
        return AnimationInfo(
            frameCount: frames, frameDurations: Array(repeating: .milliseconds(100), count: frames), loopCount: 0)
    }

    func decodeFrames(_ data: Data, range: Range<Int>, options: DecodingOptions) async throws -> DecodedFrames {
        guard let (frames, tag) = Self.parse(data) else { return DecodedFrames(frames: []) }
        let indices = range.clamped(to: 0..<frames)
        decoded.withLock { $0 += indices.count }
        asked.withLock { $0.append(range) }
        return DecodedFrames(frames: indices.map { Self.frame(Self.value(tag: tag, frame: $0)) })
    }
}

@Suite struct AnimatedImageBudgetTests {
    /// 16 bytes per 4×4 grey frame: a budget of 10 frames.
    static let budget = 160

    static func pipeline(_ decoder: FakeAnimationDecoder) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(decoder: decoder)
        configuration.animationFrameBudget = budget
        return ImagePipeline(configuration: configuration)
    }

    static func request(frames: Int, tag: Int, options: ImageRequest.Options = [.animated]) -> ImageRequest {
        ImageRequest(id: "anim-\(tag)", data: FakeAnimationDecoder.data(frames: frames, tag: tag), options: options)
    }

    @Test func animatedRequestGivesEveryFrameOfItsOwnSourceAndAStillRequestGivesNone() async throws {
        // Given a pipeline over a decoder of fake animations, and two 12-frame sources
        let decoder = FakeAnimationDecoder()
        let pipeline = Self.pipeline(decoder)
        // When one is asked for animated and the other as a still
        let animated = try await pipeline.image(for: Self.request(frames: 12, tag: 1))
        let still = try await pipeline.image(for: Self.request(frames: 12, tag: 2, options: []))
        // Then the animated one plays 12 frames, each its own source's frame i, and the still has no animation
        let animation = try #require(animated.animation)
        #expect(animation.frameCount == 12)
        for index in [0, 5, 11, 3] {
            let frame = try await animation.frame(at: index)
            #expect(frame.pixels.allSatisfy { $0 == FakeAnimationDecoder.value(tag: 1, frame: index) })
        }
        #expect(still.animation == nil)
        #expect(still.image.pixels.allSatisfy { $0 == FakeAnimationDecoder.value(tag: 2, frame: 0) })
    }

    @Test func framesOfSeveralAnimationsNeverHoldMoreThanTheBudget() async throws {
        // Given a budget of 10 frames and three 12-frame animations
        let decoder = FakeAnimationDecoder()
        let pipeline = Self.pipeline(decoder)
        var animations: [AnimatedImage] = []
        for tag in 1...3 {
            animations.append(try #require(try await pipeline.image(for: Self.request(frames: 12, tag: tag)).animation))
        }
        // When every frame of each is asked for, twice over
        for _ in 0..<2 {
            for (offset, animation) in animations.enumerated() {
                for index in 0..<12 {
                    let frame = try await animation.frame(at: index)
                    #expect(frame.pixels[0] == FakeAnimationDecoder.value(tag: offset + 1, frame: index))
                }
            }
        }
        // Then at most 10 frames are held in all, frames were evicted and decoded again, and the counters say so
        let held = animations.reduce(0) { sum, animation in
            sum + (0..<12).filter { animation.cachedFrame(at: $0) != nil }.count
        }
        #expect(held <= Self.budget / 16)
        let metrics = pipeline.metrics
        #expect(metrics.framesEvicted > 0)
        #expect(decoder.framesDecoded > 3 * 12)
        #expect(metrics.framesDecoded == decoder.framesDecoded)
    }
}
