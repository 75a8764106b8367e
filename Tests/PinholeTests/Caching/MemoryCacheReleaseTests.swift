import Pinhole
import PinholeTestSupport
import Synchronization
import Testing

/// Evicted, replaced and removed values must be released after the cache unlocks: a value whose `deinit` uses
/// the cache would otherwise deadlock on the cache's own lock.
@Suite(.timeLimit(scaledMinutes: 1))
struct MemoryCacheReleaseTests {
    /// A value that reads the cache from its `deinit` and counts its releases.
    final class Probe: Sendable {
        let cache: MemoryCache<String, Probe>
        let releases: Releases

        init(cache: MemoryCache<String, Probe>, releases: Releases) {
            self.cache = cache
            self.releases = releases
        }

        deinit {
            // Re-enters the cache: deadlocks if the cache still holds its lock.
            _ = cache.count
            releases.count.add(1, ordering: .relaxed)
        }
    }

    final class Releases: Sendable {
        let count = Atomic(0)
    }

    @Test func valuesAreReleasedOutsideTheLock() {
        // Given a cache of 2 entries whose values use the cache in their deinit
        let cache = MemoryCache<String, Probe>(configuration: .init(costLimit: 100, countLimit: 2, entryCostLimit: 100))
        let releases = Releases()

        // When values are evicted, replaced, removed, trimmed and cleared
        cache.insert(Probe(cache: cache, releases: releases), for: "a", cost: 1)
        cache.insert(Probe(cache: cache, releases: releases), for: "b", cost: 1)
        cache.insert(Probe(cache: cache, releases: releases), for: "c", cost: 1)  // evicts a
        cache.insert(Probe(cache: cache, releases: releases), for: "c", cost: 1)  // replaces c
        cache.removeValue(for: "b")
        cache.trim(toCost: 0)
        cache.insert(Probe(cache: cache, releases: releases), for: "d", cost: 1)
        cache.removeAll()

        // Then every value was released, without a deadlock
        #expect(releases.count.load(ordering: .relaxed) == 5)
        #expect(cache.count == 0)
    }
}
