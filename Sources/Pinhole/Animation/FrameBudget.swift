import PinholeShared

/// The decoded frames of every animation of one pipeline, in one least-recently-used list bounded by bytes
/// (``ImagePipeline/Configuration/animationFrameBudget``): after every insert the frames held cost at most the
/// budget, so any number of animations on screen never hold more.
///
/// Thread-safe (a lock, held for O(1) work per frame; evicted frames are released after unlocking).
final class FrameBudget: Sendable {
    /// One frame of one animation.
    struct Key: Sendable, Hashable {
        /// ``AnimatedImage``'s identity.
        let animation: ObjectIdentifier
        let index: Int
    }

    private struct Entry: Sendable {
        let key: Key
        let frame: PixelImage
    }

    private struct State: Sendable {
        var list = LRUList<Entry>()
        var handles: [Key: LRUList<Entry>.Handle] = [:]
        var totalCost = 0
        var peakCost = 0
        var evicted = 0
    }

    /// The most bytes (``PixelImage/cost``) held at once.
    let limit: Int
    private let state = Locked(State())

    init(limit: Int) { self.limit = max(0, limit) }

    /// The frame, made the most recently used one; `nil` when it is not held (never decoded, or evicted).
    func frame(_ key: Key) -> PixelImage? {
        state.withLock { state in
            guard let handle = state.handles[key] else { return nil }
            state.list.moveToFront(handle)
            return state.list[handle].frame
        }
    }

    /// Whether the frame is held; not a use (the order stays).
    func contains(_ key: Key) -> Bool { state.withLock { $0.handles[key] != nil } }

    /// Holds `frame` as the most recently used one, evicting the least recently used frames (of any animation)
    /// until the budget holds; a frame larger than the whole budget is not held. Returns how many were evicted.
    @discardableResult
    func insert(_ frame: PixelImage, for key: Key) -> Int {
        let cost = frame.cost
        guard cost <= limit else { return 0 }
        let removed: [Entry] = state.withLock { state in
            var removed: [Entry] = []
            if let old = state.handles.removeValue(forKey: key) {
                let entry = state.list.remove(old)
                state.totalCost -= entry.frame.cost
                removed.append(entry)
            }
            var evicted = 0
            while state.totalCost + cost > limit, let last = state.list.last {
                let entry = state.list.remove(last)
                state.handles[entry.key] = nil
                state.totalCost -= entry.frame.cost
                removed.append(entry)
                evicted += 1
            }
            state.handles[key] = state.list.pushFront(Entry(key: key, frame: frame))
            state.totalCost += cost
            state.peakCost = max(state.peakCost, state.totalCost)
            state.evicted += evicted
            return removed
        }
        let evicted = removed.count(where: { $0.key != key })
        withExtendedLifetime(removed) {}  // released here, unlocked
        return evicted
    }

    /// Drops every frame of `animation` (it is gone: nothing can ask for them again). O(frames held).
    func removeFrames(of animation: ObjectIdentifier) {
        let removed: [Entry] = state.withLock { state in
            let keys = state.handles.keys.filter { $0.animation == animation }
            return keys.compactMap { key in
                guard let handle = state.handles.removeValue(forKey: key) else { return nil }
                let entry = state.list.remove(handle)
                state.totalCost -= entry.frame.cost
                return entry
            }
        }
        withExtendedLifetime(removed) {}
    }

    /// Bytes held now.
    var totalCost: Int { state.withLock { $0.totalCost } }
    /// The most bytes held at once so far.
    var peakCost: Int { state.withLock { $0.peakCost } }
    /// Frames held now.
    var count: Int { state.withLock { $0.handles.count } }
    /// Frames evicted to make room so far.
    var evictedCount: Int { state.withLock { $0.evicted } }
}
