public import Pinhole
import PinholeShared

/// Pictures already drawn for the terminal, keyed by image, box, fit and renderer (mode, colours, cell size), so a
/// row or tile that scrolls back, or a photo opened again, is drawn without libchafa.
///
/// Bounded by ``costLimit`` (bytes of picture text: a sixel or kitty picture is kilobytes to megabytes, a symbol
/// thumbnail a few kilobytes); the least recently inserted entries are evicted first. Thread-safe (a lock around
/// a dictionary): the render thread stores, the main actor reads.
public final class PictureCache: Sendable {
    /// What a picture is stored under.
    public struct Key: Sendable, Hashable {
        /// The pipeline's key of the decoded image.
        public var imageKey: ImageKey
        /// Box width in cells.
        public var columns: Int
        /// Box height in cells.
        public var rows: Int
        /// Whether the picture fits or fills the box.
        public var fit: ChafaRenderer.Fit
        /// The renderer: graphics mode, colour depth, cell size, terminal.
        public var renderer: ChafaRenderer
        /// `true` for the picture of the request's ThumbHash placeholder (``ImageSlot/placeholder``), drawn in the
        /// same box until the image's own picture is ready; `false` by default.
        public var isPlaceholder: Bool
        /// The frame of an animation (``ImageSlot/frameIndex``) the picture shows; 0, the first frame (what a still
        /// shows), by default.
        public var frame: Int

        public init(
            imageKey: ImageKey, columns: Int, rows: Int, fit: ChafaRenderer.Fit, renderer: ChafaRenderer,
            isPlaceholder: Bool = false, frame: Int = 0
        ) {
            self.isPlaceholder = isPlaceholder
            self.frame = frame
            self.imageKey = imageKey
            self.columns = columns
            self.rows = rows
            self.fit = fit
            self.renderer = renderer
        }

        /// The key of the placeholder's picture in the same box.
        public var placeholder: Key {
            var key = self
            key.isPlaceholder = true
            return key
        }

        /// The key of frame `index`'s picture in the same box.
        public func frame(_ index: Int) -> Key {
            var key = self
            key.frame = index
            return key
        }
    }

    private struct Storage {
        var entries: [Key: TerminalPicture] = [:]
        var order: [Key] = []
        var cost = 0
    }

    /// The most bytes of picture text kept; 64 MB by default.
    public let costLimit: Int
    private let storage = Locked(Storage())

    public init(costLimit: Int = 64_000_000) {
        self.costLimit = max(1, costLimit)
    }

    /// The picture stored for `key`, or `nil`.
    public subscript(key: Key) -> TerminalPicture? {
        storage.withLock { $0.entries[key] }
    }

    /// Stores `picture` for `key`, evicting the oldest entries while the total cost is over ``costLimit`` (the
    /// newest entry always stays).
    public func insert(_ picture: TerminalPicture, for key: Key) {
        storage.withLock { storage in
            if let old = storage.entries.updateValue(picture, forKey: key) {
                storage.cost -= old.cost
                storage.order.removeAll { $0 == key }
            }
            storage.order.append(key)
            storage.cost += picture.cost
            while storage.cost > costLimit, storage.order.count > 1 {
                let oldest = storage.order.removeFirst()
                if let evicted = storage.entries.removeValue(forKey: oldest) { storage.cost -= evicted.cost }
            }
        }
    }

    /// Entries stored now.
    public var count: Int { storage.withLock { $0.entries.count } }

    /// Bytes of picture text stored now.
    public var totalCost: Int { storage.withLock { $0.cost } }
}
