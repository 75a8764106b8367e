public import Foundation

/// A decoder that can also play animations (GIF, animated WebP): it reads an animation's frame facts from the
/// header and decodes chosen frames at the thumbnail size, so that no caller ever holds every frame at once.
///
/// Implementations (``PinholeVips/VipsDecoder`` on Linux) must:
/// - read ``AnimationInfo`` from the header only (no pixel decoded), and check the limits there, before any
///   pixel is decoded: ``DecodingOptions/maxFrameCount``, ``DecodingOptions/maxPixelCount`` per frame, and
///   ``DecodingOptions/maxAnimationPixelCount`` over all frames;
/// - decode frames as the animation shows them (GIF disposal, WebP blending: the codec library's work, not
///   the caller's), each at the thumbnail size of the canvas (``ThumbnailOptions/layout(width:height:)``), all
///   frames of one animation the same size and pixel format;
/// - give the whole frames of data that ends early, with ``DecodedFrames/endsEarly`` set (never a frame with a
///   grey part);
/// - run blocking work on their own bounded threads, never on Swift's cooperative pool, and check cancellation
///   before and after it (a running decode is stopped when its task is cancelled).
///
/// - Throws: the ``ImageDecoding`` errors, ``PinholeError/Code/tooManyFrames``, or `CancellationError`.
public protocol AnimatedImageDecoding: ImageDecoding {
    /// Reads the animation facts of `data` from its header: `nil` for a still image (one frame, or a format that
    /// cannot animate). Checks the frame and pixel limits of `options`. Safe from any isolation.
    func animationInfo(_ data: Data, options: DecodingOptions) async throws -> AnimationInfo?

    /// Decodes the frames of `range` (0-based, as ``AnimationInfo/frameCount`` counts them) at
    /// `options.thumbnail`'s size, composed as the animation shows them. Fewer frames than `range` asks come back
    /// only when the data ends early (``DecodedFrames/endsEarly``). Safe from any isolation.
    func decodeFrames(_ data: Data, range: Range<Int>, options: DecodingOptions) async throws -> DecodedFrames
}

/// Frames of an animation, decoded.
public struct DecodedFrames: Sendable, Hashable {
    /// The frames asked for, in order, each the full thumbnail canvas (8-bit sRGB).
    public var frames: [PixelImage]
    /// Whether the data ended before the frames the header declares: the frames here are the whole ones, and
    /// the animation must never be cached as complete.
    public var endsEarly: Bool
    /// When the data ends early, the frames it holds whole in all (not only within the range asked for), if the
    /// decoder knows; `nil` otherwise (then a range given whole says only that the whole frames reach its end).
    public var wholeFrameCount: Int?

    public init(frames: [PixelImage], endsEarly: Bool = false, wholeFrameCount: Int? = nil) {
        self.frames = frames
        self.endsEarly = endsEarly
        self.wholeFrameCount = endsEarly ? wholeFrameCount : nil
    }
}

/// What an animation's header says: how many frames, how long each shows, how often it plays.
public struct AnimationInfo: Sendable, Hashable, Codable {
    /// Frames the header declares (2 or more).
    public var frameCount: Int
    /// How long each frame shows, one per frame. A declared delay of 10 ms or less is shown for 100 ms, as
    /// browsers do (https://html.spec.whatwg.org/ leaves it to them; Chromium, Firefox and libvips' own
    /// players do this).
    public var frameDurations: [Duration]
    /// How many times the animation plays; 0 means forever (GIF's NETSCAPE2.0 loop count, WebP's `ANIM`).
    public var loopCount: Int

    public init(frameCount: Int, frameDurations: [Duration], loopCount: Int) {
        self.frameCount = frameCount
        self.frameDurations = frameDurations
        self.loopCount = loopCount
    }

    /// One play through every frame.
    public var duration: Duration { frameDurations.reduce(.zero, +) }
}
