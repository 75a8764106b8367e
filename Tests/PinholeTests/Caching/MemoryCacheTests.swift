import Pinhole
import PinholeTestSupport
import Testing

@Suite(.timeLimit(scaledMinutes: 1))
struct MemoryCacheTests {
    private func makeCache(
        costLimit: Int = 1000,
        countLimit: Int = 100,
        ttl: Duration? = nil,
        entryCostLimit: Int? = nil,
        clock: ManualClock = ManualClock()
    ) -> MemoryCache<String, Int> {
        let configuration = MemoryCache<String, Int>.Configuration(
            costLimit: costLimit, countLimit: countLimit, ttl: ttl, entryCostLimit: entryCostLimit ?? costLimit)
        return MemoryCache(configuration: configuration, clock: clock)
    }

    @Test func hitRefreshesRecencySoTheLeastRecentlyReadEntryIsEvicted() {
        // Given three entries, a then b then c, and a count limit of three
        let cache = makeCache(countLimit: 3)
        cache.insert(1, for: "a", cost: 1)
        cache.insert(2, for: "b", cost: 1)
        cache.insert(3, for: "c", cost: 1)

        // When a is read and a fourth entry arrives
        #expect(cache["a"] == 1)
        cache.insert(4, for: "d", cost: 1)

        // Then b (the least recently used) is gone and the order is d, a, c
        #expect(cache["b"] == nil)
        #expect(cache.keysByRecency == ["d", "a", "c"])
        #expect(cache.count == 3)
    }

    @Test func costLimitHoldsAfterEveryInsert() {
        // Given a 1000-byte cache
        let cache = makeCache(costLimit: 1000, countLimit: 10_000)
        var generator = SystemRandomNumberGenerator()

        for step in 0..<2000 {
            // When an entry of random cost is inserted under one of 50 keys
            let cost = Int.random(in: 0...400, using: &generator)
            cache.insert(cost, for: "k\(step % 50)", cost: cost)

            // Then the limit holds and the newest entry is present
            #expect(cache.totalCost <= 1000)
            #expect(cache["k\(step % 50)"] == cost)
        }
        // And the total equals the sum of the stored entries' costs (each value is its own cost)
        let stored = cache.keysByRecency.compactMap { cache[$0] }
        #expect(stored.reduce(0, +) == cache.totalCost)
    }

    @Test func costAndCountLimitsHoldUnderConcurrentInserts() async {
        // Given a cache shared by 8 tasks
        let cache = makeCache(costLimit: 5000, countLimit: 64)

        // When each inserts 500 entries of random cost, checking the limits after each insert
        let violations = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var violations = 0
                    for step in 0..<500 {
                        let cost = Int.random(in: 0...500)
                        cache.insert(cost, for: "t\(task)-\(step % 100)", cost: cost)
                        if cache.totalCost > 5000 || cache.count > 64 { violations += 1 }
                        _ = cache["t\((task + 1) % 8)-\(step % 100)"]
                    }
                    return violations
                }
            }
            return await group.reduce(0, +)
        }

        // Then no insert ever left the cache over a limit, and the accounting is exact
        #expect(violations == 0)
        let keys = cache.keysByRecency
        #expect(keys.count == cache.count)
        #expect(keys.compactMap { cache[$0] }.reduce(0, +) == cache.totalCost)
    }

    @Test func countLimitEvictsTheOldestEntries() {
        // Given a cache that holds 10 entries
        let cache = makeCache(countLimit: 10)

        // When 25 entries are inserted
        for index in 0..<25 { cache.insert(index, for: "k\(index)", cost: 1) }

        // Then only the newest 10 remain
        #expect(cache.count == 10)
        #expect(cache.keysByRecency == (15..<25).reversed().map { "k\($0)" })
        #expect(cache["k14"] == nil)
    }

    @Test func entriesExpireAfterTheirTimeToLiveOnTheInjectedClock() {
        // Given a 10 s TTL on a manual clock
        let clock = ManualClock()
        let cache = makeCache(ttl: .seconds(10), clock: clock)
        cache.insert(1, for: "a", cost: 10)
        clock.advance(by: .seconds(5))
        cache.insert(2, for: "b", cost: 10)

        // When 9.999 s have passed for a
        clock.advance(by: .milliseconds(4999))

        // Then a is still there
        #expect(cache["a"] == 1)

        // When its 10 s are up
        clock.advance(by: .milliseconds(1))

        // Then a reads as a miss and is removed, while b lives on
        #expect(cache["a"] == nil)
        #expect(cache.count == 1)
        #expect(cache.totalCost == 10)
        #expect(cache["b"] == 2)
    }

    @Test func entriesCostlierThanTheEntryLimitAreNotStored() {
        // Given a 1000-byte cache with the default entry limit (100 bytes)
        let cache = MemoryCache<String, Int>(configuration: .init(costLimit: 1000))
        #expect(cache.configuration.entryCostLimit == 100)

        // When entries of 100 and 101 bytes are inserted
        cache.insert(1, for: "fits", cost: 100)
        cache.insert(2, for: "tooBig", cost: 101)

        // Then only the first is stored
        #expect(cache["fits"] == 1)
        #expect(cache["tooBig"] == nil)
        #expect(cache.totalCost == 100)

        // And replacing a stored value by a too costly one removes the stale value
        cache.insert(3, for: "fits", cost: 500)
        #expect(cache["fits"] == nil)
        #expect(cache.totalCost == 0)
    }

    @Test func replacingAKeyUpdatesItsCost() {
        let cache = makeCache()
        cache.insert(1, for: "a", cost: 300)
        cache.insert(2, for: "a", cost: 120)
        #expect(cache["a"] == 2)
        #expect(cache.count == 1)
        #expect(cache.totalCost == 120)
    }

    @Test func removeValueRemoveAllAndTrim() {
        // Given five entries of 100 bytes, k0 the oldest
        let cache = makeCache()
        for index in 0..<5 { cache.insert(index, for: "k\(index)", cost: 100) }

        // When one is removed
        #expect(cache.removeValue(for: "k2") == 2)
        #expect(cache.removeValue(for: "k2") == nil)
        #expect(cache.totalCost == 400)

        // When trimmed to 250 bytes
        cache.trim(toCost: 250)

        // Then the two least recently used went first
        #expect(cache.keysByRecency == ["k4", "k3"])
        #expect(cache.totalCost == 200)

        // When everything is removed
        cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
        #expect(cache["k4"] == nil)
    }

    @Test func defaultConfigurationIsBoundedByMemoryAnd512MB() {
        let configuration = MemoryCache<String, Int>.Configuration()
        #expect(configuration.costLimit > 0)
        #expect(configuration.costLimit <= 512_000_000)
        #expect(configuration.costLimit == MemoryCache<String, Int>.Configuration.defaultCostLimit)
        #expect(configuration.countLimit == 1000)
        #expect(configuration.ttl == nil)
        #expect(configuration.entryCostLimit == configuration.costLimit / 10)
    }
}
