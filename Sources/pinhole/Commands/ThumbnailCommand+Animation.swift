import Foundation
import Pinhole

extension ThumbnailCommand {
    /// The encoded thumbnail of `response`, and its frame count with `--animated` (`nil` without): the animation's
    /// frames (``AnimatedImage/allFrames(priority:maxPixelCount:)``: under the CPU limit, 40 M pixels at most)
    /// with their durations and loop count when the response is animated and the encoder can write animations,
    /// else the still.
    ///
    /// The count is of the frames the written file holds (an encoder may merge identical neighbours).
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
        // Frames held by every job together stay within one animation's limit (not --jobs animations' worth).
        let encoded = try await animation.written(by: encoder, options: options, budget: animationWrites)
        guard let (data, frameCount) = encoded else {
            return (try await codecs.encoder.encode(response.image, options: options), 1)
        }
        // The frames the file holds: libwebp merges identical neighbours (a still when all are alike).
        guard let reader = codecs.decoder as? any AnimatedImageDecoding else { return (data, frameCount) }
        let written = try await reader.animationInfo(data, options: DecodingOptions())
        return (data, written?.frameCount ?? 1)
    }
}
