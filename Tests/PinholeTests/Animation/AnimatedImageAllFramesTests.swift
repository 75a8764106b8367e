import Foundation
import Testing

@testable import Pinhole

/// ``AnimatedImage/allFrames(priority:maxPixelCount:)``, what an animation writer holds: every frame in order,
/// and nothing decoded when all of them together would pass the pixel limit.
@Suite struct AnimatedImageAllFramesTests {
    @Test func allFramesGivesEveryFrameInOrderEvenPastTheFrameBudget() async throws {
        // Given a 30-frame animation and a frame budget of 10 frames
        let decoder = FakeAnimationDecoder()
        let pipeline = AnimatedImageBudgetTests.pipeline(decoder)
        let response = try await pipeline.image(for: AnimatedImageBudgetTests.request(frames: 30, tag: 2))
        let animation = try #require(response.animation)
        // When all its frames are asked for
        let frames = try await animation.allFrames()
        // Then there are 30, frame i being the source's frame i
        #expect(frames.count == 30)
        for (index, frame) in frames.enumerated() {
            #expect(frame.pixels.allSatisfy { $0 == FakeAnimationDecoder.value(tag: 2, frame: index) }, "\(index)")
        }
        #expect(animation.shownFrameDurations.count == 30)
    }

    @Test func allFramesDecodesTheWholeAnimationInOnePass() async throws {
        // Given a 200-frame animation (runs of 8, 16, 32 and 64 frames when played)
        let decoder = FakeAnimationDecoder()
        let pipeline = ImagePipeline(configuration: .init(decoder: decoder))
        let response = try await pipeline.image(for: AnimatedImageBudgetTests.request(frames: 200, tag: 0))
        let animation = try #require(response.animation)
        let asked = decoder.rangesAsked.count
        // When all its frames are asked for
        let frames = try await animation.allFrames()
        // Then the decoder was asked once, for every frame (one sequential pass under one time limit, not a run
        // after run that each decodes the frames before it again), and frame i is the source's frame i
        #expect(decoder.rangesAsked.dropFirst(asked) == [0..<200])
        #expect(frames.count == 200)
        #expect(frames[199].pixels.allSatisfy { $0 == FakeAnimationDecoder.value(tag: 0, frame: 199) })
    }

    @Test func allFramesPastThePixelLimitIsRefusedBeforeAnyFrameIsDecoded() async throws {
        // Given a 30-frame animation of 4×4 frames (480 pixels together)
        let decoder = FakeAnimationDecoder()
        let pipeline = AnimatedImageBudgetTests.pipeline(decoder)
        let response = try await pipeline.image(for: AnimatedImageBudgetTests.request(frames: 30, tag: 3))
        let animation = try #require(response.animation)
        let decodedBefore = decoder.framesDecoded
        // When all its frames are asked for with a limit of 479 pixels
        let error = await #expect(throws: PinholeError.self) { try await animation.allFrames(maxPixelCount: 479) }
        // Then it is refused as too many pixels, and no frame was decoded for it
        #expect(error?.code == .tooManyPixels)
        #expect(decoder.framesDecoded == decodedBefore)
        // And at exactly 480 pixels all 30 frames come
        #expect(try await animation.allFrames(maxPixelCount: 480).count == 30)
    }
}

/// The runs of frames decoded together: short first, then doubling, so a sequential codec, which decodes every
/// frame before a run's start to reach it, pays for about two plays' frames a play instead of one per run.
@Suite struct AnimationRunTests {
    /// The runs covering `0..<frameCount`.
    static func runs(frameCount: Int, first: Int, longest: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var index = 0
        while index < frameCount {
            let run = AnimationFrameSource.run(
                containing: index, frameCount: frameCount, first: first, longest: longest)
            runs.append(run)
            index = run.upperBound
        }
        return runs
    }

    @Test func aFrameLateInThePlayIsDecodedWithItsWholeLongerRun() async throws {
        // Given a 60-frame animation in a pipeline whose budget holds it all
        let decoder = FakeAnimationDecoder()
        let pipeline = ImagePipeline(configuration: .init(decoder: decoder))
        let response = try await pipeline.image(for: AnimatedImageBudgetTests.request(frames: 60, tag: 4))
        let animation = try #require(response.animation)
        let before = decoder.framesDecoded
        // When frame 40 is asked for
        let frame = try await animation.frame(at: 40)
        // Then its run, frames 24 to 55, was decoded in one go, and frames 24 and 55 come from the budget
        #expect(frame.pixels.allSatisfy { $0 == FakeAnimationDecoder.value(tag: 4, frame: 40) })
        #expect(decoder.framesDecoded - before == 32)
        #expect(animation.cachedFrame(at: 24) != nil && animation.cachedFrame(at: 55) != nil)
        #expect(animation.cachedFrame(at: 23) == nil && animation.cachedFrame(at: 56) == nil)
    }

    @Test func runsStartShortAndDoubleUpToTheLongest() {
        // Given 60 frames, first runs of 8 and at most 32
        // Then the runs are 8, 16, 32 and the 4 left, and every frame's run holds it
        #expect(Self.runs(frameCount: 60, first: 8, longest: 32) == [0..<8, 8..<24, 24..<56, 56..<60])
        #expect(
            Self.runs(frameCount: 100, first: 8, longest: 16) == [
                0..<8, 8..<24, 24..<40, 40..<56, 56..<72,
                72..<88, 88..<100,
            ])
        for index in 0..<60 {
            #expect(AnimationFrameSource.run(containing: index, frameCount: 60, first: 8, longest: 32).contains(index))
        }
        // And a small budget (first = longest = 2) keeps runs of 2
        #expect(Self.runs(frameCount: 5, first: 2, longest: 2) == [0..<2, 2..<4, 4..<5])
    }

    @Test func aRunHoldsAtMostAQuarterOfTheBudgetAndSixtyFourFrames() {
        // Given frames of 100 bytes
        // Then a 32 MB budget gives first runs of 8 and runs up to 64; a 4,000-byte budget runs of 8 and 10;
        // a 400-byte one runs of 1
        #expect(AnimationFrameSource.framesPerDecode(frameCost: 100, budget: 32 << 20) == 8)
        #expect(AnimationFrameSource.framesPerRun(frameCost: 100, budget: 32 << 20) == 64)
        #expect(AnimationFrameSource.framesPerRun(frameCost: 100, budget: 4_000) == 10)
        #expect(AnimationFrameSource.framesPerRun(frameCost: 100, budget: 400) == 1)
    }
}
