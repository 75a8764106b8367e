/// Where the visible window of the headless list is at each moment: top → bottom → top at a constant speed,
/// then at rest at the top.
///
/// The window shows ``visibleRowCount`` consecutive rows starting at ``topRow(atSeconds:)``. During the first
/// half of ``durationSeconds`` the top row moves linearly from 0 to ``lastTopRow``, during the second half back
/// to 0; from ``durationSeconds`` on it stays at 0. Positions are rounded to the nearest row.
public struct ScrollScript: Sendable, Hashable {
    /// Rows in the list (≥ 1).
    public var rowCount: Int
    /// Rows visible at once (≥ 1); the window is smaller when the list is shorter.
    public var visibleRowCount: Int
    /// Length of the whole flick in seconds (top → bottom → top).
    public var durationSeconds: Double

    /// - Parameters:
    ///   - rowCount: rows in the list; values below 1 count as 1.
    ///   - visibleRowCount: rows on screen; values below 1 count as 1.
    ///   - durationSeconds: the whole flick, in seconds (7.3 in the seeds' reproduction).
    public init(rowCount: Int, visibleRowCount: Int, durationSeconds: Double) {
        self.rowCount = max(1, rowCount)
        self.visibleRowCount = max(1, visibleRowCount)
        self.durationSeconds = durationSeconds
    }

    /// The largest top row: the window then shows the last rows.
    public var lastTopRow: Int { max(0, rowCount - visibleRowCount) }

    /// The index of the first visible row `seconds` after the script starts.
    public func topRow(atSeconds seconds: Double) -> Int {
        guard durationSeconds > 0, seconds > 0, seconds < durationSeconds else { return 0 }
        let half = durationSeconds / 2
        let fraction = seconds <= half ? seconds / half : (durationSeconds - seconds) / half
        return min(lastTopRow, max(0, Int((fraction * Double(lastTopRow)).rounded())))
    }

    /// The rows visible `seconds` after the script starts.
    public func visibleRows(atSeconds seconds: Double) -> Range<Int> {
        let top = topRow(atSeconds: seconds)
        return top..<min(rowCount, top + visibleRowCount)
    }

    /// Every row visible at some moment from `start` through `end` seconds (empty when `end < start`).
    ///
    /// The top row moves piecewise linearly (down, turn at half the duration, up, rest at 0), so its extremes over
    /// an interval are at the interval's ends, at the turn, or at rest.
    public func visibleRows(fromSeconds start: Double, throughSeconds end: Double) -> Range<Int> {
        guard start <= end else { return 0..<0 }
        var tops = [topRow(atSeconds: start), topRow(atSeconds: end)]
        if start <= durationSeconds / 2 && durationSeconds / 2 <= end { tops.append(lastTopRow) }
        if start <= 0 || end >= durationSeconds { tops.append(0) }
        let low = tops.min() ?? 0
        return low..<min(rowCount, (tops.max() ?? 0) + visibleRowCount)
    }

    /// Whether the script has ended (the window rests at the top).
    public func hasEnded(atSeconds seconds: Double) -> Bool { seconds >= durationSeconds }
}
