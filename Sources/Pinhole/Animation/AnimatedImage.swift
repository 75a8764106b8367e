import Foundation
import PinholeShared

/// An animation to play (GIF, animated WebP): its header facts and its encoded bytes, with frames decoded on demand
/// at the thumbnail size. Holds no decoded frame itself: frames live in the pipeline's one frame budget
/// (``ImagePipeline/Configuration/animationFrameBudget``), shared by every animation, and are decoded again when
/// they were evicted.
///
/// Given by ``ImageResponse/animation`` for an ``ImageRequest/Options/animated`` request of an animated source.
/// Sendable; every member may be used from any isolation. Equal (and hashed) by identity.
public final class AnimatedImage: Sendable, Hashable {
    /// What the header says: frames, each one's duration, the loop count.
    public let info: AnimationInfo
    /// Every frame's size in pixels (the thumbnail size of the canvas): the size of ``ImageResponse/image``.
    public let frameSize: PixelSize
    /// The pixel format of every frame.
    public let pixelFormat: PixelImage.PixelFormat
    /// The encoded bytes the frames are decoded from (shared, not copied).
    let data: Data
    let options: DecodingOptions
    /// The priority of frame decodes asked with ``frame(at:)``.
    let priority: ImageRequest.Priority
    /// Frames of the first run decoded at once, and of the longest
    /// (``AnimationFrameSource/run(containing:frameCount:first:longest:)``).
    let framesPerDecode: Int
    let framesPerRun: Int
    let source: AnimationFrameSource
    /// Called once when a decode finds that the data ends early (the pipeline drops the animation from its memory
    /// cache).
    private let onTruncation: @Sendable (AnimatedImage) -> Void
    /// The frames found whole once the data was found to end early; `nil` while none was found missing.
    private let wholeFrames = Locked<Int?>(nil)
    /// When each frame starts within one play, in nanoseconds; one more than the frames (the last is the play's
    /// length).
    let frameStarts: [Int64]

    init(
        info: AnimationInfo, frameSize: PixelSize, pixelFormat: PixelImage.PixelFormat, data: Data,
        options: DecodingOptions, priority: ImageRequest.Priority, source: AnimationFrameSource,
        onTruncation: @escaping @Sendable (AnimatedImage) -> Void = { _ in }
    ) {
        self.info = info
        self.frameSize = frameSize
        self.pixelFormat = pixelFormat
        self.data = data
        self.options = options
        self.priority = priority
        self.source = source
        self.onTruncation = onTruncation
        let frameCost = max(1, frameSize.width * frameSize.height * pixelFormat.bytesPerPixel)
        self.framesPerDecode = AnimationFrameSource.framesPerDecode(frameCost: frameCost, budget: source.budget.limit)
        self.framesPerRun = AnimationFrameSource.framesPerRun(frameCost: frameCost, budget: source.budget.limit)
        self.frameStarts = Self.starts(of: info)
    }

    deinit { source.budget.removeFrames(of: ObjectIdentifier(self)) }

    /// The frames that can be shown: ``AnimationInfo/frameCount``, or fewer (the whole ones) once a decode found
    /// that the data ends early.
    public var frameCount: Int { wholeFrames.withLock { $0 } ?? info.frameCount }

    /// `false` once a decode found that the data ends early (``DecodedFrames/endsEarly``): such an animation is
    /// removed from the memory cache then, and never stored as complete. `true` until then.
    public var isComplete: Bool { wholeFrames.withLock { $0 } == nil }

    /// The bytes of the encoded data: with ``frameSize``, what the memory cache counts for an animated response.
    public var encodedByteCount: Int { data.count }

    /// Frame `index` (0-based, below ``frameCount``), from the frame budget, or decoded under the pipeline's CPU
    /// limit with the frames of its run (8 at first, longer later in the play), at `priority` (the request's by
    /// default). Concurrent asks for one frame share one decode; cancelling the calling task stops it when nobody
    /// else waits.
    ///
    /// - Throws: ``PinholeError/Code/invalidRequest`` for an index out of range, ``PinholeError/Code/truncated``
    ///   when the data ends before the frame, the decoder's errors, or `CancellationError`.
    public func frame(at index: Int, priority: ImageRequest.Priority? = nil) async throws -> PixelImage {
        try await source.frame(index, of: self, priority: priority ?? self.priority)
    }

    /// Frame `index` if the frame budget holds it, else `nil` (nothing is decoded). Synchronous: one lock.
    public func cachedFrame(at index: Int) -> PixelImage? {
        guard index >= 0, index < frameCount else { return nil }
        return source.cachedFrame(index, of: self)
    }

    /// Whether the frame budget holds frame `index`; neither a use nor counted.
    func holdsFrame(at index: Int) -> Bool {
        source.budget.contains(.init(animation: ObjectIdentifier(self), index: index))
    }

    /// Records that the data holds `count` whole frames only; the first such finding calls ``onTruncation``.
    func foundTruncated(wholeFrames count: Int) {
        let first = wholeFrames.withLock { whole in
            defer { whole = min(whole ?? count, count) }
            return whole == nil
        }
        if first { onTruncation(self) }
    }

    public static func == (lhs: AnimatedImage, rhs: AnimatedImage) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
