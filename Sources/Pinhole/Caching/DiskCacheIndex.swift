import Foundation

/// The in-memory index of a ``DiskCache``: which entry files exist, their sizes in bytes and their recency.
///
/// A pure value type kept behind the cache's `Locked`. Each record carries a generation number that changes
/// whenever its file is replaced, so that a reader that found a file bad removes it only if it is still the
/// file it read. Access stamps are strictly increasing dates, written to the files' modification times so that
/// the recency order survives a restart.
struct DiskCacheIndex: Sendable {
    struct Record: Sendable {
        /// The entry file's name (see ``DiskCacheChecksum/fileName(forKey:)``).
        let name: String
        /// The entry file's size in bytes.
        var size: Int
        /// Changes whenever the file is replaced.
        var generation: UInt64
    }

    private var handles: [String: LRUList<Record>.Handle] = [:]
    private var list = LRUList<Record>()
    private var nextGeneration: UInt64 = 1
    private var lastStamp = Date.distantPast
    /// The sum of the sizes of the indexed files, in bytes.
    private(set) var totalSize = 0

    init() {}

    /// The number of indexed files.
    var count: Int { list.count }

    /// The generation of the file named `name`, or `nil` when it is not indexed.
    func generation(of name: String) -> UInt64? {
        handles[name].map { list[$0].generation }
    }

    /// A new access stamp: now, or just after the previous stamp if the clock has not moved on (1 µs later).
    mutating func nextStamp() -> Date {
        let stamp = max(Date(), lastStamp.addingTimeInterval(0.000_001))
        lastStamp = stamp
        return stamp
    }

    /// Makes the file the most recently used one if it still has `generation`; returns the new access stamp.
    mutating func touch(_ name: String, generation: UInt64) -> Date? {
        guard let handle = handles[name], list[handle].generation == generation else { return nil }
        list.moveToFront(handle)
        return nextStamp()
    }

    /// Adds a file found at start-up as the most recently used one; call in order of modification time.
    mutating func restore(name: String, size: Int, modified: Date) {
        handles[name] = list.pushFront(Record(name: name, size: size, generation: nextGeneration))
        nextGeneration += 1
        totalSize += size
        lastStamp = max(lastStamp, modified)
    }

    /// Removes the record for `name` (if it still has `generation`, when given) and returns it.
    @discardableResult
    mutating func remove(_ name: String, ifGeneration generation: UInt64? = nil) -> Record? {
        guard let handle = handles[name] else { return nil }
        if let generation, list[handle].generation != generation { return nil }
        let record = list.remove(handle)
        handles[name] = nil
        totalSize -= record.size
        return record
    }

    /// Removes every record and returns the names. Generations and stamps keep counting up, so that a
    /// generation seen before is never reused.
    mutating func removeAll() -> [String] {
        let names = Array(handles.keys)
        handles = [:]
        list.removeAll()
        totalSize = 0
        return names
    }

    /// Makes room for a file of `size` bytes named `name` under `limit` bytes: removes any record for `name`
    /// (the new file replaces it), then least recently used records until `totalSize + size <= limit`.
    ///
    /// - Returns: the names of the evicted files (not `name`), which the caller must delete.
    mutating func makeRoom(for name: String, size: Int, limit: Int) -> [String] {
        remove(name)
        return evict(toSize: limit - size)
    }

    /// Indexes a newly written file as the most recently used one; `makeRoom` must have run first.
    mutating func insert(name: String, size: Int) {
        precondition(handles[name] == nil, "Internal inconsistency: DiskCacheIndex inserts \(name) twice")
        handles[name] = list.pushFront(Record(name: name, size: size, generation: nextGeneration))
        nextGeneration += 1
        totalSize += size
    }

    /// Evicts least recently used records until `totalSize <= limit`; returns the evicted names.
    mutating func evict(toSize limit: Int) -> [String] {
        var evicted: [String] = []
        while totalSize > limit, let handle = list.last {
            let record = list.remove(handle)
            handles[record.name] = nil
            totalSize -= record.size
            evicted.append(record.name)
        }
        return evicted
    }

    /// The file names from the most to the least recently used; for tests and diagnostics.
    var namesByRecency: [String] {
        list.handlesFromFront.map { list[$0].name }
    }
}
