/// Frame figures of a frame loop, from the times its ticks ran.
///
/// Two views of the same ticks:
/// - *raw intervals*: the time between consecutive ticks, in milliseconds, as measured;
/// - *presented intervals*: what a 60 Hz display would show. Each tick is placed on the nearest slot of a
///   vsync grid that starts at the first tick (slot = round((t − t₀) / period)), and the interval between two
///   frames is the number of slots between them × the period. A tick late by less than half a period still
///   makes its vsync; a stall of 20 ms costs one missed vsync (a 33.3 ms frame); two ticks in one slot count
///   as one frame. Timer jitter of a fraction of a millisecond therefore does not count as a hitch, while
///   every frame a display would drop does.
///
/// ``hitches`` are presented intervals over 16.7 ms (a missed vsync) and ``hangs`` intervals over 250 ms.
/// Percentiles use the nearest-rank method (the smallest value with at least p % of the values at or below it).
public struct FrameStatistics: Sendable, Hashable {
    /// One frame at 60 Hz, in milliseconds (1000 / 60).
    public static let periodMs = 1000.0 / 60
    /// A frame longer than this many milliseconds is a hitch.
    public static let hitchThresholdMs = 16.7
    /// A frame longer than this many milliseconds is a hang.
    public static let hangThresholdMs = 250.0

    /// Time between consecutive ticks, in milliseconds.
    public let rawIntervalsMs: [Double]
    /// Time between consecutive presented frames on the 60 Hz grid, in milliseconds (multiples of the period).
    public let presentedIntervalsMs: [Double]

    /// - Parameter tickSeconds: the times the ticks ran, in seconds on any monotonic clock, in order.
    public init(tickSeconds: [Double]) {
        rawIntervalsMs = zip(tickSeconds.dropFirst(), tickSeconds).map { ($0 - $1) * 1000 }
        presentedIntervalsMs = Self.presentedIntervals(tickSeconds: tickSeconds, periodMs: Self.periodMs)
    }

    /// Median presented frame interval in milliseconds; 0 without frames.
    public var p50Ms: Double { Self.percentile(50, of: presentedIntervalsMs) }
    /// 99th-percentile presented frame interval in milliseconds; 0 without frames.
    public var p99Ms: Double { Self.percentile(99, of: presentedIntervalsMs) }
    /// 99th-percentile raw tick interval in milliseconds (includes timer jitter); 0 without frames.
    public var rawP99Ms: Double { Self.percentile(99, of: rawIntervalsMs) }
    /// The longest raw tick interval in milliseconds; 0 without frames.
    public var maxMs: Double { rawIntervalsMs.max() ?? 0 }
    /// Presented frames longer than ``hitchThresholdMs``.
    public var hitches: Int { Self.count(presentedIntervalsMs, over: Self.hitchThresholdMs) }
    /// Presented frames longer than ``hangThresholdMs``.
    public var hangs: Int { Self.count(presentedIntervalsMs, over: Self.hangThresholdMs) }

    /// The nearest-rank `p`-th percentile (0 < p ≤ 100) of `values`; 0 when empty.
    public static func percentile(_ p: Double, of values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    /// How many of `values` are strictly greater than `threshold`.
    public static func count(_ values: [Double], over threshold: Double) -> Int {
        values.reduce(0) { $0 + ($1 > threshold ? 1 : 0) }
    }

    /// Presented intervals in milliseconds for ticks at `tickSeconds` on a grid of `periodMs`.
    public static func presentedIntervals(tickSeconds: [Double], periodMs: Double) -> [Double] {
        guard let origin = tickSeconds.first, periodMs > 0 else { return [] }
        var intervals: [Double] = []
        var previousSlot = 0
        for tick in tickSeconds.dropFirst() {
            let slot = Int(((tick - origin) * 1000 / periodMs).rounded())
            guard slot > previousSlot else { continue }
            intervals.append(Double(slot - previousSlot) * periodMs)
            previousSlot = slot
        }
        return intervals
    }
}
