import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// The pipeline's limits on what an animated request plays (`maxPlayedFrameCount`, `maxPlayedPixelCount`): past
/// them the answer is the first frame, and no other frame is decoded. Before, the first run of 8 frames was decoded
/// and then thrown away by `pinhole serve`, which checked its limits afterwards (0.6–1.4 CPU s for a large GIF).
@Suite(.timeLimit(scaledMinutes: 1))
struct PlayedAnimationLimitTests {
    /// sixty.gif: 60 frames of 64×64, asked for at 32 px, so 60 × 32 × 32 = 61,440 pixels over all frames shown.
    static let sixty = Fixtures.root.appendingPathComponent("animation/sixty.gif")

    static func pipeline(maxFrames: Int = .max, maxPixels: Int = .max) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(decoder: VipsDecoder())
        configuration.maxPlayedFrameCount = maxFrames
        configuration.maxPlayedPixelCount = maxPixels
        return ImagePipeline(configuration: configuration)
    }

    static func animatedRequest() -> ImageRequest {
        ImageRequest(url: sixty, maxPixelSize: 32, options: .animated)
    }

    @Test func anAnimationWithMoreFramesThanThePipelinePlaysIsItsFirstFrameWithNoFrameDecoded() async throws {
        // Given a pipeline that plays at most 59 frames
        let pipeline = Self.pipeline(maxFrames: 59)
        // When the 60-frame GIF is asked for animated
        let response = try await pipeline.image(for: Self.animatedRequest())
        // Then the answer is a still of the shown size, and no animation frame was decoded
        #expect(response.animation == nil)
        #expect(response.image.width == 32)
        #expect(pipeline.metrics.framesDecoded == 0)
    }

    @Test func anAnimationAtTheFrameLimitPlays() async throws {
        // Given a pipeline that plays at most 60 frames
        let pipeline = Self.pipeline(maxFrames: 60)
        // When the 60-frame GIF is asked for animated
        let response = try await pipeline.image(for: Self.animatedRequest())
        // Then it is an animation of 60 frames, its first run decoded
        #expect(response.animation?.frameCount == 60)
        #expect(pipeline.metrics.framesDecoded > 0)
    }

    @Test func thePixelLimitCountsTheFramesAtTheSizeTheyAreShown() async throws {
        // Given pipelines that play at most 61,439 and 61,440 pixels over all frames (60 × 32 × 32 = 61,440;
        // at the source's 64×64 the frames would hold 245,760)
        let under = Self.pipeline(maxPixels: 61_439)
        let atLimit = Self.pipeline(maxPixels: 61_440)
        // When the GIF is asked for animated at 32 px from each
        let still = try await under.image(for: Self.animatedRequest())
        let played = try await atLimit.image(for: Self.animatedRequest())
        // Then one pixel too many gives the first frame with no frame decoded, and the limit itself plays
        #expect(still.animation == nil)
        #expect(under.metrics.framesDecoded == 0)
        #expect(played.animation?.frameCount == 60)
    }
}
