import Pinhole
import PinholeTestSupport
import Testing

/// An entry's own time to live (``MemoryCache/insert(_:for:cost:ttl:)``): what bounds an image made from an HTTP
/// response by that response's freshness.
@Suite(.timeLimit(scaledMinutes: 1))
struct MemoryCacheEntryTTLTests {
    @Test func anEntryExpiresAfterItsOwnTTLInACacheWithoutOne() {
        // Given a cache with no TTL, and an entry stored for 10 s
        let clock = ManualClock()
        let cache = MemoryCache<String, Int>(clock: clock)
        cache.insert(1, for: "a", cost: 1, ttl: .seconds(10))
        cache.insert(2, for: "b", cost: 1)

        // When 9 s pass, then 10 s
        clock.advance(by: .seconds(9))
        let before = cache["a"]
        clock.advance(by: .seconds(1))

        // Then it answers before, not after; an entry without a TTL stays
        #expect(before == 1)
        #expect(cache["a"] == nil)
        #expect(cache["b"] == 2)
    }

    @Test func theShorterOfTheEntrysAndTheCachesTTLApplies() {
        // Given a cache with a 5 s TTL, and entries stored for 10 s and for 2 s
        let clock = ManualClock()
        let cache = MemoryCache<String, Int>(configuration: .init(ttl: .seconds(5)), clock: clock)
        cache.insert(1, for: "long", cost: 1, ttl: .seconds(10))
        cache.insert(2, for: "short", cost: 1, ttl: .seconds(2))

        // When 2 s pass, then 5 s
        clock.advance(by: .seconds(2))
        let shortAfter2 = cache["short"]
        let longAfter2 = cache["long"]
        clock.advance(by: .seconds(3))

        // Then the short one is gone at 2 s, the long one at the cache's 5 s
        #expect(shortAfter2 == nil && longAfter2 == 1)
        #expect(cache["long"] == nil)
    }

    @Test func aTTLOfZeroStoresNothingAndRemovesThePreviousValue() {
        // Given a cache holding a value
        let cache = MemoryCache<String, Int>(clock: ManualClock())
        cache.insert(1, for: "a", cost: 1)

        // When a new value is stored for the key with a TTL of zero (a response already stale)
        cache.insert(2, for: "a", cost: 1, ttl: .zero)

        // Then neither answers
        #expect(cache["a"] == nil && cache.count == 0)
    }
}
