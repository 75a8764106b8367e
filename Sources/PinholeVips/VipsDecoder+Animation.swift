import CPinholeCodecs
import CPinholeVips
public import Foundation
public import Pinhole

/// Animated GIF and WebP: the header's frame facts, and runs of frames at the thumbnail size.
///
/// - Frames are composed by libvips' loaders (libnsgif's GIF disposal, libwebp's blending); each run of frames is
///   loaded once as a stack (`page`/`n`), WebP at a smaller scale when the thumbnail is smaller (its shrink on
///   load; GIF has none), then every frame is scaled to exactly ``ThumbnailOptions/Layout/resized`` and cut to
///   the layout's output, as a still decode of the first frame is.
/// - Limits, from the header before any frame is decoded: ``DecodingOptions/maxFrameCount``,
///   ``DecodingOptions/maxPixelCount`` per frame, ``DecodingOptions/maxAnimationPixelCount`` over all frames.
/// - A GIF cut short gives its whole frames (giflib counts them) with ``DecodedFrames/endsEarly``; a WebP cut
///   short is ``PinholeError/Code/truncated``.
/// - An animated WebP with an EXIF orientation other than 1 plays as a still (its frames would be shown as
///   stored, unlike the oriented first frame).
extension VipsDecoder: AnimatedImageDecoding {
    /// Reads the animation facts of a GIF or WebP header on ``pool``; `nil` for a still or another format.
    ///
    /// - Returns: frame count, per-frame durations (a declared delay of 10 ms or less shows for 100 ms, as
    ///   browsers do) and loop count (0: forever).
    /// - Throws: ``PinholeError/Code/tooManyFrames``, ``PinholeError/Code/tooManyPixels``, the ``decode(_:options:)``
    ///   errors for data that is not a readable image, `CancellationError`.
    public func animationInfo(_ data: Data, options: DecodingOptions) async throws -> AnimationInfo? {
        let format = try Self.sniffedFormat(data)
        guard format == .gif || format == .webp else { return nil }
        try Task.checkCancellation()
        let info = try await pool.run { () throws -> AnimationInfo? in
            try Vips.ensureInitialized()
            return try Vips.capturingWarnings {
                try Self.withLoaderPolicy(
                    data, format: format, untrustedFormats: options.untrustedFormats, interruption: nil
                ) {
                    let header = try Self.readHeader(data, format: format)
                    guard header.info.frameCount >= 2, header.info.orientation == 1 else { return nil }
                    try header.checkAnimationLimits(options)
                    return try Self.readAnimationInfo(data, format: format, frameCount: header.info.frameCount)
                }
            }
        }
        try Task.checkCancellation()
        return info
    }

    /// Decodes the frames of `range` on ``pool`` at `options.thumbnail`'s size (8-bit sRGB, all one size and pixel
    /// format); cancellation or ``decodeTimeLimit`` stops the work between frames and between strips of a frame.
    ///
    /// - Returns: the frames asked for that exist; fewer only for a GIF cut short (``DecodedFrames/endsEarly``).
    /// - Throws: the ``animationInfo(_:options:)`` errors, ``PinholeError/Code/truncated`` for a WebP cut short,
    ///   ``PinholeError/Code/decodingTimedOut``, `CancellationError`.
    public func decodeFrames(_ data: Data, range: Range<Int>, options: DecodingOptions) async throws -> DecodedFrames {
        let format = try Self.sniffedFormat(data)
        try Task.checkCancellation()
        let interruption = try DecodeInterruption(timeLimit: decodeTimeLimit)
        return try await withTaskCancellationHandler {
            let frames = try await pool.run { [onDecodeStart] () throws -> DecodedFrames in
                interruption.startTimeLimit()
                onDecodeStart?(interruption)
                do {
                    try Vips.ensureInitialized()
                    return try Vips.capturingWarnings {
                        try Self.withLoaderPolicy(
                            data, format: format, untrustedFormats: options.untrustedFormats,
                            interruption: interruption
                        ) {
                            try Self.decodeFramesNow(
                                data, format: format, range: range, options: options, interruption: interruption)
                        }
                    }
                } catch {
                    try interruption.throwIfStopped()
                    throw error
                }
            }
            try Task.checkCancellation()
            return frames
        } onCancel: {
            interruption.cancel()
        }
    }

    /// The delays and loop count of the header; synchronous, on a worker thread.
    static func readAnimationInfo(_ data: Data, format: ImageFormat, frameCount: Int) throws -> AnimationInfo {
        var delays = [Int32](repeating: 0, count: frameCount)
        var delayCount: Int32 = 0
        var loop: Int32 = 0
        let status = data.withUnsafeBytes { bytes in
            delays.withUnsafeMutableBufferPointer {
                CPinholeVips_read_animation(
                    bytes.baseAddress, bytes.count, $0.baseAddress, Int32(frameCount), &delayCount, &loop)
            }
        }
        guard status == 0 else {
            throw decodingError(
                Vips.takeErrorMessage(ownThreadOnly: true), format: format, data: data, interruption: nil)
        }
        let declared = min(Int(delayCount), frameCount)
        let durations = (0..<frameCount).map { index -> Duration in
            let milliseconds = index < declared ? Int(delays[index]) : 0
            return .milliseconds(milliseconds <= 10 ? 100 : milliseconds)
        }
        return AnimationInfo(frameCount: frameCount, frameDurations: durations, loopCount: max(0, Int(loop)))
    }

    /// The whole frames of a GIF and whether it ends early (giflib's walk of its records); for other formats, all
    /// `declared` frames and `false`.
    static func wholeFrames(_ data: Data, format: ImageFormat, declared: Int) throws -> (count: Int, endsEarly: Bool) {
        guard format == .gif else { return (declared, false) }
        var endsEarly: Int32 = 0
        let whole = data.withUnsafeBytes { CPinholeCodecs_gif_whole_frames($0.baseAddress, $0.count, &endsEarly) }
        guard whole >= 0 else { throw PinholeError(.decodingFailed, "giflib cannot read this GIF's frames") }
        return endsEarly != 0 ? (min(declared, Int(whole)), true) : (declared, false)
    }
}
