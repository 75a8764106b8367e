import Foundation
import Pinhole

extension ThumbnailCommand {
    /// The encoded thumbnail of `response`, and its frame count with `--animated` (`nil` without): the animation's
    /// frames (``AnimatedImage/allFrames(priority:maxPixelCount:)``: under the CPU limit, 40 M pixels at most)
    /// with their durations and loop count when the response is animated and the encoder can write animations,
    /// else the still.
    ///
    /// - Throws: the encoder's and the frame decodes' errors (an animation that ends early keeps its whole
    ///   frames; one with fewer than 2 is written as a still).
    func encode(_ response: ImageResponse, options: EncodingOptions) async throws -> (Data, Int?) {
        guard configuration.request.animated else {
            return (try await codecs.encoder.encode(response.image, options: options), nil)
        }
        guard let animation = response.animation, let encoder = codecs.encoder as? any AnimatedImageEncoding else {
            return (try await codecs.encoder.encode(response.image, options: options), 1)
        }
        let frames = try await animation.allFrames()
        try Task.checkCancellation()
        guard frames.count >= 2 else {
            return (try await codecs.encoder.encode(response.image, options: options), 1)
        }
        let data = try await encoder.encodeAnimation(
            frames, durations: animation.shownFrameDurations, loopCount: animation.info.loopCount, options: options)
        return (data, frames.count)
    }
}
