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
        guard let encoder = configuration.encoder as? any AnimatedImageEncoding,
            animation.frameCount <= configuration.maxAnimationFrames,
            animation.totalFramePixelCount <= configuration.maxAnimationPixels
        else { return nil }
        let written = try await animation.written(
            by: encoder, options: EncodingOptions(format: format.imageFormat, quality: quality),
            budget: configuration.animationWrites, maxPixelCount: configuration.maxAnimationPixels
        ) { bytes, encode in
            guard let admission = configuration.admission else { return try await encode() }
            return try await admission.withMemory(bytes, encode)
        }
        guard let body = written?.data else { return nil }
        return EncodedThumbnail(
            body: body, format: format, etag: EntityTag.strong(for: body),
            lastModified: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)),
            imageSource: source, size: animation.frameSize, isComplete: animation.isComplete)
    }
}
