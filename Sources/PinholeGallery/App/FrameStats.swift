/// Frame times of the render loop: percentiles, hitches and hangs.
///
/// A frame's time is from the moment its timer tick was due to the moment its output was written, in
/// milliseconds: it includes the tick's lateness (time the main thread was busy or not scheduled) and the
/// frame's own work. A *hitch* is a frame over 16.7 ms (one 60 Hz frame); a *hang* is a frame over 250 ms
/// (hangs are hitches too).
public struct FrameStats: Sendable {
    /// The hitch threshold in milliseconds: one frame at 60 Hz.
    public static let hitchMilliseconds = 1000.0 / 60.0
    /// The hang threshold in milliseconds.
    public static let hangMilliseconds = 250.0

    /// Every frame time so far, in milliseconds.
    public private(set) var samples: [Double] = []
    /// The main actor's own work in each frame (from the tick's start to the end of the write), in milliseconds.
    public private(set) var workSamples: [Double] = []
    /// Frames over ``hitchMilliseconds``.
    public private(set) var hitches = 0
    /// Frames over ``hangMilliseconds``.
    public private(set) var hangs = 0
    /// The window of ``recentPercentile(_:)``, in frames: 300 (5 s at 60 Hz).
    public let recentWindow = 300

    public init() {}

    /// Adds one frame time in milliseconds, and optionally the frame's own work.
    public mutating func record(milliseconds: Double, workMilliseconds: Double? = nil) {
        samples.append(milliseconds)
        if let workMilliseconds { workSamples.append(workMilliseconds) }
        if milliseconds > Self.hitchMilliseconds { hitches += 1 }
        if milliseconds > Self.hangMilliseconds { hangs += 1 }
    }

    /// The `fraction` percentile (0…1, nearest rank) of all frames; 0 with no frames.
    public func percentile(_ fraction: Double) -> Double {
        Self.percentile(samples, fraction)
    }

    /// The `fraction` percentile of the last ``recentWindow`` frames (for the status line).
    public func recentPercentile(_ fraction: Double) -> Double {
        Self.percentile(Array(samples.suffix(recentWindow)), fraction)
    }

    /// The longest frame, in milliseconds.
    public var maximum: Double { samples.max() ?? 0 }

    /// Nearest-rank percentile of `values`; 0 when empty.
    public static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((Double(sorted.count) * min(1, max(0, fraction))).rounded(.up)) - 1
        return sorted[min(sorted.count - 1, max(0, rank))]
    }
}
