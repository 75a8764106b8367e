import Foundation

/// What `pinhole bench animation` measured (``AnimationBenchmark``): Pinhole's play and the decode-everything
/// reference of the same run. Seconds, bytes and counts.
public struct AnimationBenchmarkResult: Sendable, Codable, Hashable {
    public var animations: Int
    public var framesPerAnimation: Int
    public var frameDurationMilliseconds: Double
    public var size: Int
    /// A frame's bytes at the rows' size, on average over the sources.
    public var frameBytes = 0

    // Pinhole, over the play.
    public var playedSeconds = 0.0
    public var framesShown = 0
    public var framesSkipped = 0
    public var framesDecoded = 0
    public var framesReused = 0
    public var framesEvicted = 0
    /// The process's CPU time over the play (decodes on the pipeline's and libvips' threads, and the ticks).
    public var decodeCPUSeconds = 0.0
    public var frameBudget = 0
    public var peakFrameBytes = 0
    public var ticks = 0
    /// Main-actor time in ``Pinhole/AnimationTicker/tick(at:)``, in total and the longest tick.
    public var tickSeconds = 0.0
    public var maxTickSeconds = 0.0

    // The reference: every frame decoded up front and held.
    public var referenceFramesDecoded = 0
    public var referenceDecodeCPUSeconds = 0.0
    public var referenceHeldBytes = 0

    init(configuration: AnimationBenchmark.Configuration) {
        animations = configuration.animations
        framesPerAnimation = configuration.frames
        frameDurationMilliseconds = configuration.frameDuration / .milliseconds(1)
        size = configuration.size
    }

    /// The frame changes a perfect player shows in the play: each row, one per frame duration.
    public var framesDue: Int {
        Int((playedSeconds * 1000 / frameDurationMilliseconds).rounded(.down)) * animations
    }
    public var framesDecodedPerSecond: Double { Double(framesDecoded) / max(playedSeconds, 1e-9) }
    /// Decode threads' CPU seconds per second of play (1.0: one core busy).
    public var decodeCPUPerSecond: Double { decodeCPUSeconds / max(playedSeconds, 1e-9) }
    /// Main-actor milliseconds per tick, for all rows together.
    public var tickMilliseconds: Double { tickSeconds * 1000 / Double(max(ticks, 1)) }
    /// Peak frame memory over the reference's held frames.
    public var memoryRatio: Double { Double(peakFrameBytes) / Double(max(referenceHeldBytes, 1)) }

    /// The figures as a few lines of text.
    public var text: String {
        let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        return [
            String(
                format: "%d animations × %d frames of %.0f ms at %d px (%@ a frame), played %.1f s",
                animations, framesPerAnimation, frameDurationMilliseconds, size, megabytes(frameBytes), playedSeconds),
            String(
                format: "shown     %d frame changes of %d due (%.1f%%), %d skipped", framesShown, framesDue,
                100 * Double(framesShown) / Double(max(framesDue, 1)), framesSkipped),
            String(
                format: "decoded   %d frames (%.0f/s), %d reused, %d evicted; decode CPU %.2f s/s", framesDecoded,
                framesDecodedPerSecond, framesReused, framesEvicted, decodeCPUPerSecond),
            "memory    peak \(megabytes(peakFrameBytes)) of a \(megabytes(frameBudget)) budget"
                + String(format: " (%.2f× the reference's)", memoryRatio),
            String(
                format: "main      %.3f ms a tick for %d rows (%d ticks), longest %.3f ms", tickMilliseconds,
                animations,
                ticks, maxTickSeconds * 1000),
            String(
                format: "reference %d frames decoded up front in %.2f CPU s, holding %@", referenceFramesDecoded,
                referenceDecodeCPUSeconds, megabytes(referenceHeldBytes)),
        ].joined(separator: "\n")
    }
}
