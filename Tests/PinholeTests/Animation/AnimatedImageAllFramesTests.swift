import Foundation
import Pinhole
import Testing

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
