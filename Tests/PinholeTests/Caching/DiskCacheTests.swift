import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

@Suite(.timeLimit(scaledMinutes: 1))
struct DiskCacheTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func openCache(sizeLimit: Int = 1_000_000) async throws -> DiskCache {
        try await DiskCache(configuration: .init(directory: directory.url, sizeLimit: sizeLimit))
    }

    /// The size of the entry file for `key` with `dataCount` bytes and default-ish metadata.
    private func fileSize(of key: String, data: Data, metadata: DiskCache.Metadata) async throws -> Int {
        let probe = try TemporaryDirectory()
        let cache = try await DiskCache(configuration: .init(directory: probe.url))
        try await cache.store(data, metadata: metadata, for: key)
        return cache.totalSize
    }

    @Test func storedEntryRoundTripsWithItsMetadata() async throws {
        // Given a cache and a response with validators and an expiry
        let cache = try await openCache()
        let data = Data.pattern(count: 10_000)
        let metadata = DiskCache.Metadata(
            etag: "\"abc\"", lastModified: "Wed, 21 Oct 2026 07:28:00 GMT", contentType: "image/jpeg",
            storedAt: Date(timeIntervalSince1970: 1_800_000_000.125),
            expiresAt: Date(timeIntervalSince1970: 1_800_003_600))

        // When it is stored and read back
        try await cache.store(data, metadata: metadata, for: "https://example.com/a.jpg")
        let entry = try #require(await cache.entry(for: "https://example.com/a.jpg"))

        // Then data and metadata are equal, and the index accounts the one file on disk exactly
        #expect(entry == DiskCache.Entry(data: data, metadata: metadata))
        #expect(cache.count == 1)
        let files = try directory.entryFiles()
        #expect(files.count == 1)
        #expect(files.bytes == cache.totalSize)
        #expect(cache.totalSize > data.count)
        #expect(await cache.entry(for: "https://example.com/b.jpg") == nil)
    }

    @Test func emptyDataRoundTrips() async throws {
        let cache = try await openCache()
        try await cache.store(Data(), metadata: .init(storedAt: Date(timeIntervalSince1970: 0)), for: "empty")
        #expect(await cache.entry(for: "empty")?.data == Data())
    }

    @Test func sizeLimitHoldsOnDiskAfterEveryWrite() async throws {
        // Given a 30 KB cache
        let cache = try await openCache(sizeLimit: 30_000)
        let metadata = DiskCache.Metadata(storedAt: Date(timeIntervalSince1970: 0))

        for step in 0..<150 {
            // When entries of random size (some larger than the limit) are stored under 40 keys
            let count = step % 25 == 24 ? 30_000 : Int.random(in: 0...12_000)
            try await cache.store(
                Data.pattern(count: count, seed: UInt8(step % 256)), metadata: metadata,
                for: "key-\(step % 40)")

            // Then the limit holds and the files on disk agree with the index
            #expect(cache.totalSize <= 30_000)
            let files = try directory.entryFiles()
            #expect(files.bytes == cache.totalSize)
            #expect(files.count == cache.count)
        }
    }

    @Test func concurrentStoresAndReadsKeepTheAccountingExact() async throws {
        // Given a 50 KB cache
        let cache = try await openCache(sizeLimit: 50_000)

        // When 8 tasks store and read 60 times each, partly the same keys
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for step in 0..<60 {
                        let key = "k\((task * 7 + step) % 20)"
                        let data = Data.pattern(count: Int.random(in: 100...6000), seed: UInt8(task))
                        try await cache.store(data, metadata: .init(etag: "\(task)"), for: key)
                        #expect(cache.totalSize <= 50_000)
                        // A read sees one whole write: the data matches the writer named in its metadata
                        if let entry = await cache.entry(for: "k\(step % 20)") {
                            let writer = try #require(entry.metadata.etag.flatMap { UInt8($0) })
                            #expect(entry.data == Data.pattern(count: entry.data.count, seed: writer))
                            #expect(entry.data.count >= 100)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }

        // Then the files on disk agree with the index, and every indexed entry reads back
        let files = try directory.entryFiles()
        #expect(files.bytes == cache.totalSize)
        #expect(files.count == cache.count)
        var readable = 0
        for index in 0..<20 where await cache.entry(for: "k\(index)") != nil {
            readable += 1
        }
        #expect(readable == cache.count)
        #expect(try directory.fileNames().allSatisfy { !$0.hasPrefix(".tmp-") })
    }

    @Test func evictionFollowsReadsLeastRecentlyUsedFirst() async throws {
        // Given room for three 1000-byte entries
        let metadata = DiskCache.Metadata(storedAt: Date(timeIntervalSince1970: 0))
        let data = Data.pattern(count: 1000)
        let size = try await fileSize(of: "a", data: data, metadata: metadata)
        let cache = try await openCache(sizeLimit: 3 * size + size / 2)
        for key in ["a", "b", "c"] { try await cache.store(data, metadata: metadata, for: key) }

        // When a is read, then d is stored
        #expect(await cache.entry(for: "a") != nil)
        try await cache.store(data, metadata: metadata, for: "d")

        // Then b, the least recently used, was evicted
        #expect(await cache.entry(for: "b") == nil)
        for key in ["a", "c", "d"] { #expect(await cache.entry(for: key) != nil, "\(key)") }
        #expect(cache.count == 3)
        #expect(try directory.entryFiles().bytes == cache.totalSize)
    }

    @Test func entryLargerThanTheLimitIsNotStoredAndDropsTheOldOne() async throws {
        // Given a 5000-byte cache holding a small entry for the key
        let cache = try await openCache(sizeLimit: 5000)
        try await cache.store(Data.pattern(count: 100), metadata: .init(), for: "key")
        try await cache.store(Data.pattern(count: 100), metadata: .init(), for: "other")

        // When a 5000-byte body is stored for it (its file is larger than the limit)
        try await cache.store(Data.pattern(count: 5000), metadata: .init(), for: "key")

        // Then nothing is stored for the key, and the other entry survives
        #expect(await cache.entry(for: "key") == nil)
        #expect(await cache.entry(for: "other") != nil)
        #expect(cache.count == 1)
        #expect(try directory.entryFiles().bytes == cache.totalSize)
    }

    @Test func updateMetadataKeepsTheDataAndReplacesTheMetadata() async throws {
        // Given a stored entry
        let cache = try await openCache()
        let data = Data.pattern(count: 2000)
        try await cache.store(data, metadata: .init(etag: "v1", storedAt: Date(timeIntervalSince1970: 0)), for: "k")

        // When a 304 brings new metadata
        let fresh = DiskCache.Metadata(
            etag: "v1", storedAt: Date(timeIntervalSince1970: 100),
            expiresAt: Date(timeIntervalSince1970: 200))
        #expect(try await cache.updateMetadata(fresh, for: "k"))
        #expect(try await !cache.updateMetadata(fresh, for: "missing"))

        // Then the entry has the same data and the new metadata; nothing was created for the missing key
        #expect(await cache.entry(for: "k") == DiskCache.Entry(data: data, metadata: fresh))
        #expect(cache.count == 1)
        #expect(try directory.entryFiles().bytes == cache.totalSize)
    }

    @Test func removeEntryAndRemoveAllDeleteTheFiles() async throws {
        let cache = try await openCache()
        for key in ["a", "b", "c"] { try await cache.store(Data.pattern(count: 500), metadata: .init(), for: key) }

        await cache.removeEntry(for: "b")
        #expect(await cache.entry(for: "b") == nil)
        #expect(cache.count == 2)
        #expect(try directory.entryFiles().count == 2)

        await cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.totalSize == 0)
        #expect(try directory.entryFiles().count == 0)
    }

    @Test func cancelledCallersNeitherStoreNorRead() async throws {
        // Given a cache with one entry
        let cache = try await openCache()
        try await cache.store(Data.pattern(count: 100), metadata: .init(), for: "kept")

        // When a cancelled task stores and reads
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            let read = await cache.entry(for: "kept")
            do {
                try await cache.store(Data.pattern(count: 100), metadata: .init(), for: "new")
                return (read, false)
            } catch is CancellationError {
                return (read, true)
            }
        }
        task.cancel()
        let (read, storeCancelled) = try await task.cancellableValue

        // Then the store throws CancellationError and writes nothing, and the read is a miss
        #expect(storeCancelled)
        #expect(read == nil)
        #expect(cache.count == 1)
        #expect(try directory.entryFiles().count == 1)
        #expect(try directory.fileNames().allSatisfy { !$0.hasPrefix(".tmp-") })
    }

    @Test(arguments: [
        (nil as Date?, true),
        (Date(timeIntervalSince1970: 1001), true),
        (Date(timeIntervalSince1970: 1000), false),
        (Date(timeIntervalSince1970: 999), false),
    ])
    func freshnessFollowsExpiry(expiresAt: Date?, fresh: Bool) {
        let metadata = DiskCache.Metadata(storedAt: Date(timeIntervalSince1970: 0), expiresAt: expiresAt)
        #expect(metadata.isFresh(now: Date(timeIntervalSince1970: 1000)) == fresh)
    }
}
