public import Pinhole

/// A small cache of converted thumbnails, keyed by image key + cell size, so a row that scrolls back is drawn
/// without converting again.
///
/// Least-recently-inserted entries are evicted beyond ``capacity``. Thread-safe (a lock around a dictionary):
/// conversions store from a worker thread, the main actor reads.
public final class ThumbnailCellCache: Sendable {
    /// What a converted thumbnail is stored under.
    public struct Key: Sendable, Hashable {
        /// The pipeline's key of the decoded image.
        public var imageKey: ImageKey
        /// Width in cells.
        public var columns: Int
        /// Height in cells.
        public var rows: Int

        public init(imageKey: ImageKey, columns: Int, rows: Int) {
            self.imageKey = imageKey
            self.columns = columns
            self.rows = rows
        }
    }

    private struct Storage {
        var entries: [Key: HalfBlockImage] = [:]
        var order: [Key] = []
    }

    /// The most entries kept; 512 by default.
    public let capacity: Int
    private let storage = Locked(Storage())

    public init(capacity: Int = 512) {
        self.capacity = max(1, capacity)
    }

    /// The cells stored for `key`, or `nil`.
    public subscript(key: Key) -> HalfBlockImage? {
        storage.withLock { $0.entries[key] }
    }

    /// Stores `cells` for `key`, evicting the oldest entries beyond ``capacity``.
    public func insert(_ cells: HalfBlockImage, for key: Key) {
        storage.withLock { storage in
            if storage.entries.updateValue(cells, forKey: key) == nil { storage.order.append(key) }
            while storage.order.count > capacity {
                storage.entries[storage.order.removeFirst()] = nil
            }
        }
    }

    /// Entries stored now.
    public var count: Int { storage.withLock { $0.entries.count } }
}
