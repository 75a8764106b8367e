extension AnimatedImage {
    /// The frame due after `elapsed` of play from the first frame's start: frames follow their durations, and the
    /// animation plays ``AnimationInfo/loopCount`` times (0: forever). `nil` once the last play has ended (show the
    /// last frame) or when the frames have no duration at all; 0 for a negative `elapsed`.
    public func frameIndex(after elapsed: Duration) -> Int? {
        position(after: elapsed)?.index
    }

    /// The time of play at which the frame after the one due at `elapsed` starts (for a last play: when it ends);
    /// `nil` once finished.
    func nextFrameTime(after elapsed: Duration) -> Duration? {
        guard let position = position(after: elapsed) else { return nil }
        let count = frameCount
        let play = Int64(position.loop) * frameStarts[count]
        return .nanoseconds(play + frameStarts[position.index + 1])
    }

    /// The loop and frame due at `elapsed`, over the frames that can be shown.
    private func position(after elapsed: Duration) -> (loop: Int, index: Int)? {
        let count = frameCount
        guard count > 0, count < frameStarts.count else { return nil }
        let total = frameStarts[count]
        guard total > 0 else { return nil }
        let now = Self.nanoseconds(elapsed)
        guard now > 0 else { return (0, 0) }
        let loop = now / total
        if info.loopCount > 0, loop >= Int64(info.loopCount) { return nil }
        let within = now % total
        // The last start at or before `within` (binary search over the sorted starts).
        var low = 0
        var high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if frameStarts[middle] <= within { low = middle } else { high = middle - 1 }
        }
        return (Int(loop), low)
    }

    /// Each frame's start within a play, in nanoseconds, and the play's length last.
    static func starts(of info: AnimationInfo) -> [Int64] {
        var starts: [Int64] = [0]
        starts.reserveCapacity(info.frameCount + 1)
        var time: Int64 = 0
        for index in 0..<info.frameCount {
            let duration = index < info.frameDurations.count ? info.frameDurations[index] : .zero
            time += max(0, nanoseconds(duration))
            starts.append(time)
        }
        return starts
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min / 2 : .max / 2 }
        return product + attoseconds / 1_000_000_000
    }
}
