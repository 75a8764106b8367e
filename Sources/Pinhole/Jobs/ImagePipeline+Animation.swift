import Foundation
import PinholeShared

extension ImagePipeline {
    /// Bytes of decoded animation frames the frame budget holds now (at most
    /// ``Configuration/animationFrameBudget``); 0 with a decoder that cannot animate. Thread-safe.
    public var heldFrameBytes: Int { animationFrames?.budget.totalCost ?? 0 }

    /// The most bytes of decoded animation frames the frame budget held at once so far. Thread-safe.
    public var peakFrameBytes: Int { animationFrames?.budget.peakCost ?? 0 }

    /// The animation of `data` for an ``ImageRequest/Options/animated`` request whose first frame decoded as
    /// `first`, or `nil`: not asked, a decoder that cannot animate, a still source (``AnimatedImageDecoding``'s
    /// `animationInfo` is `nil`), processors (they apply to the still only), or more frames or pixels than the
    /// pipeline plays (``Configuration/maxPlayedFrameCount``, ``Configuration/maxPlayedPixelCount``).
    ///
    /// The header is read under the CPU limit at the job's priority; then the first run of frames is decoded, so
    /// that the frames shown first are at hand and data that ends within them is found before anything is cached.
    ///
    /// - Throws: the decoder's errors (``PinholeError/Code/tooManyFrames``, ``PinholeError/Code/tooManyPixels``…),
    ///   `CancellationError`.
    func animation(
        of data: Data, first: PixelImage, for request: ImageRequest, key: ImageJobKey, context: JobContext
    ) async throws -> AnimatedImage? {
        guard request.options.contains(.animated), request.processors.isEmpty, let frames = animationFrames else {
            return nil
        }
        let options = decodingOptions(for: request)
        let token = UniqueID.next()
        let jobPriority: @Sendable () -> Priority = { context.priority }
        let info = try await processingQueue.run(token: token, priority: jobPriority) {
            try Task.checkCancellation()
            return try await frames.decoder.animationInfo(data, options: options)
        }
        try Task.checkCancellation()
        guard let info, info.frameCount >= 2 else { return nil }
        let frameSize = PixelSize(width: first.width, height: first.height)
        guard plays(frameCount: info.frameCount, of: frameSize) else { return nil }
        let animation = AnimatedImage(
            info: info, frameSize: frameSize,
            pixelFormat: first.pixelFormat, data: data, options: options, priority: request.priority, source: frames,
            onTruncation: truncationHandler(for: key))
        _ = try await frames.frame(0, of: animation, priority: context.priority)
        return animation
    }

    /// Whether `frameCount` frames of `frameSize` are within what the pipeline plays
    /// (``Configuration/maxPlayedFrameCount``, ``Configuration/maxPlayedPixelCount``; an overflow is not, unless
    /// there is no pixel limit).
    private func plays(frameCount: Int, of frameSize: PixelSize) -> Bool {
        frameCount <= configuration.maxPlayedFrameCount
            && frameSize.pixelCount(frames: frameCount) <= configuration.maxPlayedPixelCount
    }

    /// The first frame and the animation of `data`, which a still decode found cut short, for an
    /// ``ImageRequest/Options/animated`` request: the whole frames play (``AnimatedImage/isComplete`` is `false`,
    /// so neither the image nor the bytes are cached), when there are 2 or more of them; `nil` otherwise (the
    /// caller throws the truncation). The first frame is decoded again allowing the missing end; it is whole when a
    /// second frame is.
    ///
    /// - Throws: the decoder's errors, `CancellationError`.
    func truncatedAnimation(
        _ data: Data, for request: ImageRequest, key: ImageJobKey, context: JobContext
    ) async throws -> DecodedImage? {
        guard request.processors.isEmpty, animationFrames != nil else { return nil }
        var decoded = try await decodeUnderLimit(
            data, options: decodingOptions(for: request, allowsTruncatedData: true), priority: { context.priority },
            metrics: context)
        try Task.checkCancellation()
        guard
            let animation = try await animation(
                of: data, first: decoded.image, for: request, key: key, context: context),
            !animation.isComplete, animation.frameCount >= 2
        else { return nil }
        decoded.animation = animation
        return decoded
    }

    /// What to do when an animation made for `key` is found to end early: it leaves the memory cache (when it is
    /// the one stored there), and its source's bytes leave the disk cache (they are cut short).
    private func truncationHandler(for key: ImageJobKey) -> @Sendable (AnimatedImage) -> Void {
        // Weak: the memory cache holds the animation, which holds this.
        {
            [weak memoryCache = configuration.memoryCache, lazyDiskCache, onDiagnostic = configuration.onDiagnostic]
            animation in
            if let memoryCache, memoryCache[key.image]?.animation === animation {
                memoryCache.removeValue(for: key.image)
            }
            onDiagnostic?("animation: \(key.image) ends after \(animation.frameCount) whole frames; not cached")
            let sourceKey = key.data.sourceKey
            Task { await lazyDiskCache.cache()?.removeEntry(for: sourceKey) }
        }
    }
}
