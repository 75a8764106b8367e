import Foundation
import Pinhole

extension ThumbnailService {
    /// The format an animated answer is written in for a URL that asks for animation: the URL's format when it
    /// can animate (WebP, GIF), `nil` (a still) for any other; negotiated from `Accept` without one
    /// (``AcceptHeader/animationFormat``).
    static func animationFormat(asked: OutputFormat?, accept: AcceptHeader) -> OutputFormat? {
        guard let asked else { return accept.animationFormat }
        return asked.canAnimate ? asked : nil
    }

    /// The animated answer of `animation` in `format`, or `nil` when it is to be answered with its first frame:
    /// more frames than ``Configuration/maxAnimationFrames``, more pixels over all frames than
    /// ``Configuration/maxAnimationPixels``, an encoder that cannot animate, or fewer than 2 whole frames.
    ///
    /// The frames' pixels are reserved in ``Configuration/animationWrites`` before they are decoded (in one pass,
    /// ``AnimatedImage/allFrames(priority:maxPixelCount:)``) and the encode's memory in the admission controller.
    /// A source found to end early gives its whole frames and an answer that is not ``EncodedThumbnail/isComplete``.
    ///
    /// - Throws: the frame decodes' and the encoder's errors, ``AdmissionError``, `CancellationError`.
    func animatedAnswer(
        _ animation: AnimatedImage, format: OutputFormat, quality: Int, source: ImageResponse.Source
    ) async throws -> EncodedThumbnail? {
        guard let encoder = configuration.encoder as? any AnimatedImageEncoding else { return nil }
        let (framePixels, overflow) = animation.frameSize.width.multipliedReportingOverflow(
            by: animation.frameSize.height)
        let (pixels, overflows) = framePixels.multipliedReportingOverflow(by: animation.frameCount)
        guard !overflow, !overflows, animation.frameCount <= configuration.maxAnimationFrames,
            pixels <= configuration.maxAnimationPixels
        else { return nil }
        let encoding = EncodingOptions(format: format.imageFormat, quality: quality)
        let written = try await configuration.animationWrites.withReservation(pixels: pixels) {
            () async throws -> (Data, Int)? in
            let frames = try await animation.allFrames(maxPixelCount: configuration.maxAnimationPixels)
            try Task.checkCancellation()
            guard frames.count >= 2 else { return nil }
            let encode = {
                try await encoder.encodeAnimation(
                    frames, durations: animation.shownFrameDurations, loopCount: animation.info.loopCount,
                    options: encoding)
            }
            // The encoder's copy of the frames and its output, as for a still: about twice the frames' bytes.
            let bytes = frames.reduce(0) { $0 + $1.pixels.count } * 2
            guard let admission = configuration.admission else { return (try await encode(), frames.count) }
            return (try await admission.withMemory(bytes, encode), frames.count)
        }
        try Task.checkCancellation()
        guard let (body, frameCount) = written else { return nil }
        return EncodedThumbnail(
            body: body, format: format, etag: EntityTag.strong(for: body),
            lastModified: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)),
            imageSource: source, size: animation.frameSize, frameCount: frameCount, isComplete: animation.isComplete)
    }
}
