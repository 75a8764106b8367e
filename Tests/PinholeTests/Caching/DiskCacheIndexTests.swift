import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole

/// The index's bookkeeping, without any file I/O.
@Suite(.timeLimit(scaledMinutes: 1))
struct DiskCacheIndexTests {
    @Test func makeRoomEvictsLeastRecentlyUsedUntilTheNewFileFits() {
        // Given a, b, c of 100 bytes each (c the most recent), a touched last
        var index = DiskCacheIndex()
        for name in ["a", "b", "c"] {
            _ = index.makeRoom(for: name, size: 100, limit: 300)
            index.insert(name: name, size: 100)
        }
        let generationOfA = index.generation(of: "a")
        #expect(index.touch("a", generation: generationOfA ?? 0) != nil)

        // When room is made for 150 bytes under 300
        let evicted = index.makeRoom(for: "d", size: 150, limit: 300)

        // Then b and c went, least recently used first, and 150 bytes remain accounted
        #expect(evicted == ["b", "c"])
        #expect(index.totalSize == 100)
        #expect(index.namesByRecency == ["a"])
    }

    @Test func replacingAFileRemovesItsOldSizeAndChangesItsGeneration() {
        var index = DiskCacheIndex()
        index.insert(name: "a", size: 100)
        let before = index.generation(of: "a")

        #expect(index.makeRoom(for: "a", size: 250, limit: 300).isEmpty)
        index.insert(name: "a", size: 250)

        #expect(index.totalSize == 250)
        #expect(index.count == 1)
        #expect(index.generation(of: "a") != before)
    }

    @Test func staleGenerationsNeitherTouchNorRemove() {
        // Given a file that was replaced after a reader saw it
        var index = DiskCacheIndex()
        index.insert(name: "a", size: 10)
        let seen = index.generation(of: "a") ?? 0
        _ = index.makeRoom(for: "a", size: 10, limit: 100)
        index.insert(name: "a", size: 10)

        // When the reader touches or drops what it saw
        // Then nothing happens to the new file
        #expect(index.touch("a", generation: seen) == nil)
        #expect(index.remove("a", ifGeneration: seen) == nil)
        #expect(index.count == 1)
    }

    @Test func generationsAreNotReusedAfterRemoveAll() {
        var index = DiskCacheIndex()
        index.insert(name: "a", size: 10)
        let seen = index.generation(of: "a")
        #expect(index.removeAll() == ["a"])
        index.insert(name: "a", size: 10)
        #expect(index.generation(of: "a") != seen)
        #expect(index.totalSize == 10)
    }

    @Test func stampsStrictlyIncreaseEvenAfterARestoreFromTheFuture() {
        var index = DiskCacheIndex()
        let future = Date().addingTimeInterval(3600)
        index.restore(name: "a", size: 10, modified: future)
        let first = index.nextStamp()
        let second = index.nextStamp()
        #expect(first > future)
        #expect(second > first)
    }
}
