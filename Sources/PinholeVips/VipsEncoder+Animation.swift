import CPinholeVips
public import Foundation
public import Pinhole

extension VipsEncoder: AnimatedImageEncoding {
    /// Encodes `frames` as an animated GIF or lossy WebP (at ``EncodingOptions/quality``) with libvips: the frames
    /// stacked as one image of `page-height` rows a frame, their `delay`s and the `loop` count set as libvips'
    /// savers read them. Metadata is stripped; alpha is kept (1-bit in GIF). Runs on ``pool``.
    ///
    /// - Throws: see ``AnimatedImageEncoding/encodeAnimation(_:durations:loopCount:options:)``.
    public func encodeAnimation(
        _ frames: [PixelImage], durations: [Duration], loopCount: Int, options: EncodingOptions
    ) async throws -> Data {
        guard options.format == .gif || options.format == .webp else {
            throw PinholeError(
                .unsupportedFormat, "cannot write an animation as \(options.format.name): GIF and WebP can animate",
                detectedType: options.format.name)
        }
        guard let first = frames.first, frames.count >= 2, durations.count == frames.count else {
            throw PinholeError(
                .invalidRequest,
                "an animation needs 2 or more frames, one duration each (\(frames.count) frames, "
                    + "\(durations.count) durations)")
        }
        guard
            frames.allSatisfy({
                $0.width == first.width && $0.height == first.height && $0.pixelFormat == first.pixelFormat
            })
        else { throw PinholeError(.invalidRequest, "the frames of an animation must share one size and format") }
        try Task.checkCancellation()
        let data = try await pool.run {
            try Self.encodeAnimationNow(frames, durations: durations, loopCount: loopCount, options: options)
        }
        try Task.checkCancellation()
        return data
    }

    /// The whole encode, synchronous; runs on a worker thread.
    static func encodeAnimationNow(
        _ frames: [PixelImage], durations: [Duration], loopCount: Int, options: EncodingOptions
    ) throws -> Data {
        try Vips.ensureInitialized()
        let failure = { (message: String) in
            PinholeError(.encodingFailed, "cannot encode an animated \(options.format.name): \(message)")
        }
        let first = frames[0]
        let rowBytes = first.width * first.pixelFormat.bytesPerPixel
        var stacked: [UInt8] = []
        stacked.reserveCapacity(rowBytes * first.height * frames.count)
        for frame in frames {
            for row in 0..<frame.height {
                let start = row * frame.bytesPerRow
                stacked.append(contentsOf: frame.pixels[start..<start + rowBytes])
            }
        }
        let stack = try VipsImageHandle.copying(
            PixelImage(
                width: first.width, height: first.height * frames.count, pixelFormat: first.pixelFormat,
                bytesPerRow: rowBytes, pixels: stacked),
            failure: failure)
        let delays = durations.map { Int32(Self.storedDelay($0, format: options.format)) }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status = delays.withUnsafeBufferPointer { delays in
            CPinholeVips_animation_save(
                stack.pointer, Int32(first.height), delays.baseAddress, Int32(delays.count),
                Int32(min(65535, max(0, loopCount))), options.format == .webp ? 1 : 0, Int32(options.quality), &buffer,
                &length)
        }
        defer { CPinholeVips_free(buffer) }
        guard status == 0, let buffer else { throw failure(Vips.takeErrorMessage()) }
        return Data(bytes: buffer, count: length)
    }

    /// The delay written for a frame shown for `duration`, in milliseconds, within what `format` stores: GIF keeps
    /// centiseconds in 16 bits (at most 655,350 ms), and players show 0 and 10 ms as 100 ms, so GIF delays are at
    /// least 20 ms; WebP keeps up to 2^24 − 1 ms, here an hour at most. Longer durations are clamped, never wrapped.
    static func storedDelay(_ duration: Duration, format: ImageFormat) -> Int {
        let milliseconds = Int(min(3_600_000, max(0, (duration / .milliseconds(1)).rounded())))
        guard format == .gif else { return milliseconds }
        return min(655_350, max(20, milliseconds))
    }
}
