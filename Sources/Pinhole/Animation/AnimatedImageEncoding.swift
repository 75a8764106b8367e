public import Foundation

/// An encoder that can also write animations (GIF, animated WebP): the frames of an ``AnimatedImage`` with their
/// durations and loop count, as `pinhole thumbnail --animated` and `pinhole serve` write them.
///
/// Implementations (``PinholeVips/VipsEncoder`` on Linux) run blocking work on their own threads, never on Swift's
/// cooperative pool, and check cancellation before and after it.
public protocol AnimatedImageEncoding: ImageEncoding {
    /// Encodes `frames` (2 or more, all one size and pixel format, 8-bit sRGB) as one animation in
    /// `options.format`, frame i shown for `durations[i]` (rounded to what the format stores: 10 ms for GIF,
    /// 1 ms for WebP; clamped, never wrapped, to what it can hold), played `loopCount` times (0: forever; at most
    /// 65,535). An encoder may merge consecutive identical frames (libwebp does), keeping their total duration.
    /// Safe from any isolation.
    ///
    /// - Throws: ``PinholeError/Code/unsupportedFormat`` for a format that cannot animate,
    ///   ``PinholeError/Code/invalidRequest`` for frames of different sizes or formats, fewer than 2 frames or
    ///   durations that do not match them, ``PinholeError/Code/encodingFailed``, `CancellationError`.
    func encodeAnimation(
        _ frames: [PixelImage], durations: [Duration], loopCount: Int, options: EncodingOptions
    ) async throws -> Data
}

extension AnimatedImage {
    /// The most pixels ``allFrames(priority:maxPixelCount:)`` holds by default, all frames together: 40 M
    /// (160 MB of RGBA), about 300 frames of 360 × 360. As imgproxy sums its frames' resolutions against its
    /// source limit: a small animation that declares 1,000 large frames is a bomb for a writer that holds them all.
    public static let defaultMaxAllFramesPixelCount = 40_000_000

    /// Every frame that can be shown, in order: decoded in one sequential pass under the pipeline's CPU limit and
    /// within the decoder's one time limit (``PinholeVips/VipsDecoder/decodeTimeLimit``, 10 s of CPU by default,
    /// for the whole animation), outside the frame budget. The caller holds them all: for writing the animation
    /// out, not for playing it. Data that ends early gives its whole frames (``frameCount`` and ``isComplete``
    /// say so afterwards).
    ///
    /// - Parameter maxPixelCount: the most pixels all frames may hold together (``frameCount`` × ``frameSize``),
    ///   checked before any frame is decoded.
    /// - Throws: ``PinholeError/Code/tooManyPixels`` past `maxPixelCount`, ``PinholeError/Code/decodingTimedOut``
    ///   past the time limit, the decoder's errors, `CancellationError`.
    public func allFrames(
        priority: ImageRequest.Priority? = nil, maxPixelCount: Int = defaultMaxAllFramesPixelCount
    ) async throws -> [PixelImage] {
        guard totalFramePixelCount <= maxPixelCount else {
            throw PinholeError(
                .tooManyPixels,
                "\(frameCount) frames of \(frameSize.width)×\(frameSize.height) hold more than \(maxPixelCount) pixels "
                    + "together; ask for a smaller size or a still")
        }
        return try await source.allFrames(of: self, priority: priority ?? self.priority)
    }

    /// The pixels every frame holds together (``frameCount`` × ``frameSize``); `Int.max` when that overflows.
    public var totalFramePixelCount: Int { frameSize.pixelCount(frames: frameCount) }

    /// The animation written out by `encoder`, and the frames written, as `pinhole thumbnail --animated` and
    /// `pinhole serve` write it: ``totalFramePixelCount`` reserved in `budget` before any frame is decoded, every
    /// frame from ``allFrames(priority:maxPixelCount:)``, then one encode with the frames' durations and loop count,
    /// run through `reservingEncode` (given the encode's bytes, twice the frames', to hold memory around it; by
    /// default it just runs it). `nil` when fewer than 2 frames are whole: the caller writes the still.
    ///
    /// - Throws: the ``allFrames(priority:maxPixelCount:)`` and encoder errors, `reservingEncode`'s, and
    ///   `CancellationError`.
    public func written(
        by encoder: any AnimatedImageEncoding, options: EncodingOptions, budget: AnimationWriteBudget,
        maxPixelCount: Int = defaultMaxAllFramesPixelCount,
        reservingEncode: (Int, () async throws -> Data) async throws -> Data = { try await $1() }
    ) async throws -> (data: Data, frameCount: Int)? {
        try await budget.withReservation(pixels: totalFramePixelCount) { () async throws -> (Data, Int)? in
            let frames = try await allFrames(maxPixelCount: maxPixelCount)
            try Task.checkCancellation()
            guard frames.count >= 2 else { return nil }
            let bytes = frames.reduce(0) { $0 + $1.pixels.count } * 2
            let data = try await reservingEncode(bytes) {
                try await encoder.encodeAnimation(
                    frames, durations: shownFrameDurations, loopCount: info.loopCount, options: options)
            }
            try Task.checkCancellation()
            return (data, frames.count)
        }
    }

    /// How long each of the frames ``allFrames(priority:maxPixelCount:)`` gives shows.
    public var shownFrameDurations: [Duration] { Array(info.frameDurations.prefix(frameCount)) }
}
