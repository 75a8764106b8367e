/// A thread-safe, in-memory least-recently-used cache with a cost limit (bytes), a count limit and an
/// optional time to live. The pipeline keeps decoded thumbnails in one, keyed by image key.
///
/// Every operation is synchronous and O(1) (eviction: O(1) per evicted entry). After every
/// ``insert(_:for:cost:)``, ``totalCost`` ≤ ``Configuration/costLimit`` and ``count`` ≤
/// ``Configuration/countLimit`` hold: least recently used entries are evicted first. A hit (the
/// ``subscript(_:)`` getter) makes the entry the most recently used one and allocates nothing.
///
/// Safe from any isolation: the state sits behind a lock (``LockedStorage``). No user code runs while the lock
/// is held except `Key`'s `hash(into:)` and `==`; replaced and evicted values are released after unlocking,
/// and the clock is read outside the lock (before it, or, for a hit on an entry with a TTL of its own
/// (``insert(_:for:cost:ttl:)``) in a cache without one, after it: an expired entry then costs a second lock).
///
/// ```swift
/// let cache = MemoryCache<String, PixelImage>(configuration: .init(costLimit: 50_000_000))
/// cache.insert(image, for: "photo-360", cost: image.cost)
/// let hit = cache["photo-360"]
/// ```
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The limits this cache enforces; fixed at creation.
    public let configuration: Configuration

    // The hit and insert paths are @inlinable (hence these @usableFromInline members) so that other modules get
    // code specialized for their Key and Value: unspecialized generic code made a hit ~5x slower (measured).
    @usableFromInline
    let state = LockedStorage()
    /// The time elapsed on the injected clock since the cache was created.
    @usableFromInline
    let now: @Sendable () -> Duration

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - configuration: the limits; the defaults of ``Configuration/init(costLimit:countLimit:ttl:entryCostLimit:)``.
    ///   - clock: the clock that measures ``Configuration/ttl`` and the entries' own TTLs; a `ContinuousClock` by
    ///     default (tests inject a manual one). It is read only when a TTL (the cache's or an entry's) applies.
    public init(configuration: Configuration = .init(), clock: some Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
    }

    /// The value stored for `key`, or `nil` when there is none or it has expired (an expired entry is removed).
    ///
    /// A hit makes the entry the most recently used one.
    @inlinable
    public subscript(key: Key) -> Value? {
        let now = configuration.ttl == nil ? nil : self.now()
        let lookup = state.withLock { $0.lookup(key, now: now) }
        switch lookup {
        case .hit(let value):
            return value
        case .miss, .expired:
            return nil  // an expired entry's value is released here, outside the lock
        case .hitUntil(let value, let expiry):
            // An entry with a TTL of its own, in a cache without one: the clock is read after the lock.
            guard self.now() >= expiry else { return value }
            let expired = state.withLock { $0.removeValue(for: key, expiringAt: expiry) }
            withExtendedLifetime((value, expired)) {}  // released here, unlocked
            return nil
        }
    }

    /// Stores `value` for `key` as the most recently used entry, replacing any previous value, then evicts least
    /// recently used entries until both limits hold.
    ///
    /// A value that costs more than ``Configuration/entryCostLimit`` or ``Configuration/costLimit`` is not stored,
    /// and any previous value for `key` is removed (it would be stale).
    ///
    /// - Parameters:
    ///   - value: the value to store.
    ///   - key: its key.
    ///   - cost: its size in bytes (for a ``PixelImage``: its `cost`, bytes per row × height); negative costs
    ///     count as 0.
    @inlinable
    public func insert(_ value: Value, for key: Key, cost: Int) {
        insert(value, for: key, cost: cost, ttl: nil)
    }

    /// Stores `value` for `key` as ``insert(_:for:cost:)`` does, usable for at most `ttl` after now: it expires
    /// after the shorter of `ttl` and ``Configuration/ttl``.
    ///
    /// - Parameters:
    ///   - value: the value to store.
    ///   - key: its key.
    ///   - cost: its size in bytes; negative costs count as 0.
    ///   - ttl: how long the entry stays usable, on the cache's clock; `nil`: ``Configuration/ttl`` alone. Zero or
    ///     less: the value is not stored, and any previous value for `key` is removed (it would be stale).
    @inlinable
    public func insert(_ value: Value, for key: Key, cost: Int, ttl: Duration?) {
        let cost = max(0, cost)
        guard cost <= configuration.entryCostLimit, cost <= configuration.costLimit, ttl.map({ $0 > .zero }) ?? true
        else {
            _ = removeValue(for: key)
            return
        }
        let lifetime = ttl.map { min($0, configuration.ttl ?? $0) } ?? configuration.ttl
        let expiry = lifetime.map { now() + $0 }
        let entry = MemoryCacheState<Key, Value>.Entry(key: key, value: value, cost: cost, expiry: expiry)
        let removed = state.withLock {
            $0.insert(entry, costLimit: configuration.costLimit, countLimit: configuration.countLimit)
        }
        withExtendedLifetime(removed) {}  // the replaced and evicted values are released here, unlocked
    }

    /// Removes the value for `key` and returns it (even when it has expired), or `nil` when there is none.
    @discardableResult
    @inlinable
    public func removeValue(for key: Key) -> Value? {
        state.withLock { $0.removeValue(for: key) }?.value
    }

    /// How long the entry for `key` stays usable from now on, on the cache's clock: `nil` when there is no entry or
    /// it never expires, zero or less when it has expired. Neither a hit nor a removal.
    func remainingTTL(for key: Key) -> Duration? {
        guard let expiry = state.withLock({ $0.expiry(of: key) }) else { return nil }
        return expiry - now()
    }

    /// Removes every entry.
    public func removeAll() {
        let old = state.withLock { state in
            let old = state
            state = MemoryCacheState()
            return old
        }
        withExtendedLifetime(old) {}  // the values are released here, unlocked
    }

    /// Evicts least recently used entries until ``totalCost`` is at most `cost` bytes (0 empties the cache).
    public func trim(toCost cost: Int) {
        let removed = state.withLock { state in
            var removed: [MemoryCacheState<Key, Value>.Entry] = []
            state.evict(toCost: max(0, cost), count: Int.max, into: &removed)
            return removed
        }
        withExtendedLifetime(removed) {}
    }

    /// The sum of the costs of the stored entries, in bytes (expired entries not yet removed included).
    public var totalCost: Int { state.withLock { $0.totalCost } }

    /// The number of stored entries (expired entries not yet removed included).
    public var count: Int { state.withLock { $0.count } }

    /// The keys from the most to the least recently used; for tests and diagnostics. O(n).
    package var keysByRecency: [Key] { state.withLock { $0.keysByRecency } }
}
