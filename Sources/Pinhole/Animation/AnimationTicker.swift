/// One clock for every animating ``ImageSlot``: each tick shows, in each slot, the frame its animation's time says
/// is due, so a late tick skips frames instead of slowing the animation down, and no slot has a timer of its own.
///
/// - A slot plays when it has a ticker (``ImageSlot/animationTicker``) and its response an
///   ``ImageResponse/animation``; it stops on ``ImageSlot/cancel()``, ``ImageSlot/disappear()``,
///   ``ImageSlot/prepareForReuse()``, a load of another request, and when the animation's loop count ends (the last
///   frame stays).
/// - A frame is shown only when the frame budget holds it (``AnimatedImage/cachedFrame(at:)``); else the slot keeps
///   its frame and asks for the due one (at most one frame request in flight per slot), reading a little ahead.
/// - Driven by a host's frame loop (``tick(at:)``, sleeping until ``nextDeadline``), or by its own loop
///   (``start()``: one task on the main actor that sleeps until the next deadline).
///
/// Isolation: the main actor. Frames are decoded off it (``AnimatedImage/frame(at:priority:)``).
@MainActor
public final class AnimationTicker {
    /// What the ticker did since it was made.
    public struct Metrics: Sendable, Hashable {
        /// Calls of ``AnimationTicker/tick(at:)`` (the own loop's included).
        public var ticks = 0
        /// Frame changes shown in slots.
        public var framesShown = 0
        /// Frames that were due and never shown: their turn passed between two ticks, or before their decode.
        public var framesSkipped = 0
        /// Frame requests started (decodes, unless another caller or the budget had the frame).
        public var framesRequested = 0
        /// Slots animating now.
        public var animatingSlots = 0
        /// Main-actor time spent in ticks, in total and in the longest one (`ContinuousClock`).
        public var tickTime: Duration = .zero
        public var maxTickTime: Duration = .zero
    }

    /// One animating slot.
    struct Entry {
        weak var slot: ImageSlot?
        let animation: AnimatedImage
        /// The slot's generation when it started: a frame is shown only while it is still the slot's.
        let generation: UInt64
        /// The tick at which frame 0 was on screen; `nil` until the first tick.
        var start: ContinuousClock.Instant?
        var shown = 0
        /// The frame request in flight, at most one.
        var request: Task<Void, Never>?
        var requestedIndex: Int?
    }

    /// How many frames past the due one are asked for ahead of time.
    static let readAhead = 2

    var entries: [ObjectIdentifier: Entry] = [:]
    /// Set when a frame arrived or a slot started, so that the next tick comes at once.
    var needsTick = false
    var lastTick: ContinuousClock.Instant?
    /// The own loop's state (``start()``).
    var loop: Task<Void, Never>?
    var wake: CheckedContinuation<Void, Never>?
    /// What the ticker did since it was made; ``Metrics/animatingSlots`` is now.
    public var metrics: Metrics {
        var metrics = counters
        metrics.animatingSlots = entries.count
        return metrics
    }
    var counters = Metrics()

    public init() {}

    /// Shows the frame due at `now` in every animating slot (see the type's rules). Cheap: a few lookups a slot.
    public func tick(at now: ContinuousClock.Instant) {
        let clockStart = ContinuousClock.now
        counters.ticks += 1
        lastTick = now
        needsTick = false
        for id in Array(entries.keys) { advance(id, at: now) }
        let spent = ContinuousClock.now - clockStart
        counters.tickTime += spent
        counters.maxTickTime = max(counters.maxTickTime, spent)
    }

    /// When the earliest next frame change is due; `nil` when no slot animates. An instant already passed (a
    /// frame arrived, a slot started) means: tick now.
    public var nextDeadline: ContinuousClock.Instant? {
        var earliest: ContinuousClock.Instant?
        for entry in entries.values {
            guard let start = entry.start else { return lastTick ?? .now }
            let elapsed = (lastTick ?? start) - start
            guard let next = entry.animation.nextFrameTime(after: elapsed) else { continue }
            earliest = min(earliest ?? start + next, start + next)
        }
        if needsTick, let lastTick { return lastTick }
        return earliest
    }

    /// One slot's step: the due frame shown when the budget has it, else asked for; the slot leaves when done.
    private func advance(_ id: ObjectIdentifier, at now: ContinuousClock.Instant) {
        guard var entry = entries[id], let slot = entry.slot, slot.generation == entry.generation else {
            return remove(id)
        }
        let start = entry.start ?? now
        entry.start = start
        let animation = entry.animation
        let due = animation.frameIndex(after: now - start)
        let target = due ?? max(0, animation.frameCount - 1)
        if target != entry.shown, let frame = animation.cachedFrame(at: target) {
            let count = max(1, animation.frameCount)
            let steps = (target - entry.shown + count) % count
            counters.framesSkipped += max(0, steps - 1)
            counters.framesShown += 1
            entry.shown = target
            slot.show(frame: frame, index: target)
        }
        if due == nil, entry.shown == target {
            entries[id] = entry
            return remove(id)  // the last play ended on its last frame
        }
        if entry.request == nil, let wanted = firstMissing(from: target, entry: entry) {
            entry.request = request(wanted, of: animation, for: id, generation: entry.generation)
            entry.requestedIndex = wanted
            counters.framesRequested += 1
        }
        entries[id] = entry
    }

    /// The due frame when it is not shown and not held, else the first of the next ``readAhead`` not held.
    private func firstMissing(from target: Int, entry: Entry) -> Int? {
        let animation = entry.animation
        let count = animation.frameCount
        guard count > 0 else { return nil }
        for step in 0...Self.readAhead {
            let index = (target + step) % count
            if step == 0, index == entry.shown { continue }
            if !animation.holdsFrame(at: index) { return index }
        }
        return nil
    }
}
