/// The state of a ``MemoryCache``: a dictionary from key to list handle plus the recency list, with the
/// running total cost. A pure value type, kept behind the cache's lock (`MemoryCache.LockedStorage`).
///
/// Mutating operations hand removed values back to the caller instead of dropping them, so that the last
/// release of a value (and whatever its `deinit` does) happens after the lock is released.
@usableFromInline
struct MemoryCacheState<Key: Hashable, Value> {
    @usableFromInline
    struct Entry {
        @usableFromInline let key: Key
        @usableFromInline var value: Value
        /// Bytes, as given to ``MemoryCache/insert(_:for:cost:)``; never negative.
        @usableFromInline var cost: Int
        /// The instant (on the cache's clock, measured from its creation) after which the entry is stale.
        @usableFromInline var expiry: Duration?

        @inlinable
        init(key: Key, value: Value, cost: Int, expiry: Duration?) {
            self.key = key
            self.value = value
            self.cost = cost
            self.expiry = expiry
        }
    }

    /// The result of a lookup: the value on a hit, or the stale value removed on expiry.
    @usableFromInline
    enum Lookup {
        case hit(Value)
        case miss
        case expired(Entry)
        /// A hit on an entry that expires at this time, for a lookup given no time: the caller checks it.
        case hitUntil(Value, Duration)
    }

    @usableFromInline
    var handles: [Key: LRUList<Entry>.Handle] = [:]
    @usableFromInline
    var list = LRUList<Entry>()
    /// The sum of the costs of the stored entries, in bytes.
    @usableFromInline
    private(set) var totalCost = 0

    @inlinable
    init() {}

    /// The number of stored entries.
    @inlinable
    var count: Int { list.count }

    /// Looks `key` up; a fresh hit becomes the most recently used entry, an expired one is removed.
    ///
    /// - Parameter now: the current time on the cache's clock, or `nil` when it was not read (no TTL is
    ///   configured): a hit on an entry that has an expiry of its own then gives ``Lookup/hitUntil(_:_:)``.
    @inlinable
    mutating func lookup(_ key: Key, now: Duration?) -> Lookup {
        guard let handle = handles[key] else { return .miss }
        let expiry = list[handle].expiry
        if let now, let expiry, now >= expiry { return .expired(remove(handle)) }
        list.moveToFront(handle)
        if now == nil, let expiry { return .hitUntil(list[handle].value, expiry) }
        return .hit(list[handle].value)
    }

    /// Removes the entry for `key` if it still has this expiry (it was not replaced meanwhile), and returns it.
    @inlinable
    mutating func removeValue(for key: Key, expiringAt expiry: Duration) -> Entry? {
        guard let handle = handles[key], list[handle].expiry == expiry else { return nil }
        return remove(handle)
    }

    /// The expiry of the entry for `key`, or `nil` when there is none or it never expires.
    func expiry(of key: Key) -> Duration? {
        handles[key].flatMap { list[$0].expiry }
    }

    /// Stores `entry` as the most recently used one (replacing any entry for its key), then evicts least
    /// recently used entries until both limits hold.
    ///
    /// - Returns: the replaced and evicted entries, for the caller to release outside the lock.
    @inlinable
    mutating func insert(_ entry: Entry, costLimit: Int, countLimit: Int) -> [Entry] {
        var removed: [Entry] = []
        if let handle = handles[entry.key] {
            removed.append(remove(handle))
        }
        handles[entry.key] = list.pushFront(entry)
        totalCost += entry.cost
        evict(toCost: costLimit, count: countLimit, into: &removed)
        return removed
    }

    /// Removes the entry for `key`, if any, and returns it.
    @inlinable
    mutating func removeValue(for key: Key) -> Entry? {
        guard let handle = handles[key] else { return nil }
        return remove(handle)
    }

    /// Evicts least recently used entries until the total cost is at most `cost` bytes and the count at most
    /// `count` entries.
    @inlinable
    mutating func evict(toCost cost: Int, count: Int, into removed: inout [Entry]) {
        while totalCost > cost || list.count > count, let handle = list.last {
            removed.append(remove(handle))
        }
    }

    /// The keys from the most to the least recently used; for tests and diagnostics.
    var keysByRecency: [Key] {
        list.handlesFromFront.map { list[$0].key }
    }

    @inlinable
    mutating func remove(_ handle: LRUList<Entry>.Handle) -> Entry {
        let entry = list.remove(handle)
        handles[entry.key] = nil
        totalCost -= entry.cost
        return entry
    }
}

extension MemoryCacheState: Sendable where Key: Sendable, Value: Sendable {}
extension MemoryCacheState.Entry: Sendable where Key: Sendable, Value: Sendable {}
extension MemoryCacheState.Lookup: Sendable where Key: Sendable, Value: Sendable {}
