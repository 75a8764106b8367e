import Foundation

extension MemoryCache {
    /// The limits of a ``MemoryCache``. Costs are in bytes (1 MB = 1,000,000 bytes).
    public struct Configuration: Sendable {
        /// The most bytes the cache holds; after every insert ``MemoryCache/totalCost`` is at most this.
        ///
        /// ``defaultCostLimit`` by default: 15% of the physical memory, at most 512 MB.
        public var costLimit: Int
        /// The most entries the cache holds; 1000 by default.
        public var countLimit: Int
        /// How long an entry stays usable after it was inserted; `nil` (the default) means it never expires.
        ///
        /// Measured on the cache's clock. An expired entry is removed when it is looked up; until then it
        /// counts towards the limits and is evicted by recency like any other entry.
        public var ttl: Duration?
        /// Entries that cost more bytes than this are not stored; `costLimit / 10` by default.
        public var entryCostLimit: Int

        /// Creates limits; every argument has a default.
        ///
        /// - Parameters:
        ///   - costLimit: bytes; ``defaultCostLimit`` by default.
        ///   - countLimit: entries; 1000 by default.
        ///   - ttl: time to live after insertion; `nil` (no expiry) by default.
        ///   - entryCostLimit: bytes; `costLimit / 10` when `nil` (the default).
        public init(
            costLimit: Int = Configuration.defaultCostLimit,
            countLimit: Int = 1000,
            ttl: Duration? = nil,
            entryCostLimit: Int? = nil
        ) {
            self.costLimit = costLimit
            self.countLimit = countLimit
            self.ttl = ttl
            self.entryCostLimit = entryCostLimit ?? costLimit / 10
        }

        /// 15% of `ProcessInfo.physicalMemory`, at most 512 MB (512,000,000 bytes).
        public static var defaultCostLimit: Int {
            let fifteenPercent = ProcessInfo.processInfo.physicalMemory / 100 * 15
            return Int(clamping: min(fifteenPercent, 512_000_000))
        }
    }
}
