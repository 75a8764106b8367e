import Foundation
import PinholeShared

/// Decodes the frames of a pipeline's animations: under the pipeline's CPU limit, a run of frames at once, one
/// decode per run however many ask, the frames kept in the one ``FrameBudget``.
///
/// Holds no pipeline (animations in the memory cache hold this, and the pipeline holds the memory cache).
final class AnimationFrameSource: Sendable {
    /// The frames of an animation's first run. A sequential codec (GIF, WebP) pays for every frame before frame i
    /// to reach it, so runs double in length after this (8, 16, 32, …: ``run(containing:frameCount:first:longest:)``)
    /// and a whole play costs about two plays' decoding instead of one per run; the first stays short so a row's
    /// second frame comes soon.
    static let maxFramesPerDecode = 8
    /// The longest run, however large the budget: a decode stays short enough to be stopped quickly.
    static let maxFramesPerRun = 64
    /// The share of the budget one run may take: a quarter, so several animations' runs fit at once.
    static let runBudgetShare = 4

    /// One run of frames of one animation: the job key of its decode.
    struct RunKey: Sendable, Hashable {
        let animation: ObjectIdentifier
        let start: Int
    }

    let decoder: any AnimatedImageDecoding
    let processingQueue: WorkQueue
    let budget: FrameBudget
    let recorder: MetricsRecorder
    let runs = CoalescingRegistry<RunKey, [PixelImage]>()

    init(decoder: any AnimatedImageDecoding, processingQueue: WorkQueue, budget: Int, recorder: MetricsRecorder) {
        self.decoder = decoder
        self.processingQueue = processingQueue
        self.budget = FrameBudget(limit: budget)
        self.recorder = recorder
    }

    /// Frames decoded at once for frames of `frameCost` bytes: at most ``maxFramesPerDecode``, and no more than fit
    /// in a ``runBudgetShare``th of the budget (at least 1).
    static func framesPerDecode(frameCost: Int, budget: Int) -> Int {
        max(1, min(maxFramesPerDecode, budget / runBudgetShare / max(1, frameCost)))
    }

    /// The most frames of `frameCost` bytes one run may hold: ``maxFramesPerRun``, and no more than a
    /// ``runBudgetShare``th of the budget (at least ``framesPerDecode(frameCost:budget:)``).
    static func framesPerRun(frameCost: Int, budget: Int) -> Int {
        max(
            framesPerDecode(frameCost: frameCost, budget: budget),
            min(maxFramesPerRun, budget / runBudgetShare / max(1, frameCost)))
    }

    /// The run of frames decoded together that holds frame `index`: runs of `first` frames, then each twice the
    /// one before, up to `longest` frames, over `0..<frameCount`. O(log(longest / first) + index / longest).
    static func run(containing index: Int, frameCount: Int, first: Int, longest: Int) -> Range<Int> {
        var (start, length) = (0, max(1, first))
        while index >= start + length {
            start += length
            length = min(max(1, longest), length * 2)
        }
        return start..<min(start + length, max(frameCount, start + 1))
    }

    /// The frame if the budget holds it (counted as reused).
    func cachedFrame(_ index: Int, of animation: AnimatedImage) -> PixelImage? {
        guard let frame = budget.frame(.init(animation: ObjectIdentifier(animation), index: index)) else {
            return nil
        }
        recorder.record { $0.framesReused += 1 }
        return frame
    }

    /// Frame `index` of `animation`: from the budget, or from the decode of its run (joined when one runs).
    func frame(_ index: Int, of animation: AnimatedImage, priority: ImageRequest.Priority) async throws -> PixelImage {
        guard index >= 0, index < animation.frameCount else {
            throw PinholeError(.invalidRequest, "frame \(index) of an animation of \(animation.frameCount) frames")
        }
        try Task.checkCancellation()
        if let hit = cachedFrame(index, of: animation) { return hit }
        let range = Self.run(
            containing: index, frameCount: animation.info.frameCount, first: animation.framesPerDecode,
            longest: animation.framesPerRun)
        let start = range.lowerBound
        let callerPriority: @Sendable () -> ImageRequest.Priority = { priority }
        let frames = try await runs.value(
            for: RunKey(animation: ObjectIdentifier(animation), start: start), subscriber: UniqueID.next(),
            priority: callerPriority,
            work: { [self] context in try await decodeRun(range, of: animation, context: context) })
        try Task.checkCancellation()
        let offset = index - start
        guard offset < frames.count else {
            throw PinholeError(.truncated, "the animation's data ends before frame \(index)")
        }
        return frames[offset]
    }

    /// Every whole frame of `animation`, in one decode under the CPU limit at `priority`: one sequential pass
    /// (a GIF or WebP decoder reaches frame i through every frame before it, so runs would decode the start again
    /// and again), within the decoder's one time limit. The frames bypass the budget: the caller holds them all.
    /// A decode that finds the data ending early records the whole frames (``AnimatedImage/isComplete``).
    func allFrames(of animation: AnimatedImage, priority: ImageRequest.Priority) async throws -> [PixelImage] {
        try Task.checkCancellation()
        let callerPriority: @Sendable () -> ImageRequest.Priority = { priority }
        let range = 0..<animation.info.frameCount
        let decoded = try await processingQueue.run(token: UniqueID.next(), priority: callerPriority) {
            try Task.checkCancellation()
            return try await decoder.decodeFrames(animation.data, range: range, options: animation.options)
        }
        try Task.checkCancellation()
        recorder.record { $0.framesDecoded += decoded.frames.count }
        recordTruncation(of: animation, decoded, range: range)
        // As many frames as there are durations: the whole ones, however the decoder counted them.
        return Array(decoded.frames.prefix(min(range.count, animation.frameCount)))
    }

    /// Decodes `range` under the CPU limit at the job's priority, and puts the frames in the budget.
    private func decodeRun(
        _ range: Range<Int>, of animation: AnimatedImage, context: JobContext
    ) async throws -> [PixelImage] {
        let token = UniqueID.next()
        context.observePriority { [processingQueue] in
            processingQueue.updatePriority(token, from: { context.priority })
        }
        let jobPriority: @Sendable () -> ImageRequest.Priority = { context.priority }
        let decoded = try await processingQueue.run(token: token, priority: jobPriority) {
            try Task.checkCancellation()
            return try await decoder.decodeFrames(animation.data, range: range, options: animation.options)
        }
        try Task.checkCancellation()
        let id = ObjectIdentifier(animation)
        var evicted = 0
        for (offset, frame) in decoded.frames.prefix(range.count).enumerated() {
            evicted += budget.insert(frame, for: .init(animation: id, index: range.lowerBound + offset))
        }
        recorder.record {
            $0.framesDecoded += decoded.frames.count
            $0.framesEvicted += evicted
        }
        recordTruncation(of: animation, decoded, range: range)
        return decoded.frames
    }

    /// Records that `animation`'s data ends early when a decode of `range` says so: its whole frames are the
    /// decoder's count when it gives one, else those up to the last one decoded when the range came back short,
    /// else (the range came back whole) the count is not known yet: the animation is marked incomplete with its
    /// declared frames, and a later short run lowers the count.
    private func recordTruncation(of animation: AnimatedImage, _ decoded: DecodedFrames, range: Range<Int>) {
        if let whole = decoded.wholeFrameCount {
            animation.foundTruncated(wholeFrames: whole)
        } else if decoded.frames.count < range.count {
            animation.foundTruncated(wholeFrames: range.lowerBound + decoded.frames.count)
        } else if decoded.endsEarly {
            animation.foundTruncated(wholeFrames: animation.info.frameCount)
        }
    }
}
