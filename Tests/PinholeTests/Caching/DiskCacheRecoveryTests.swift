import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// Restarts, damaged files and unusable directories: nothing bad is ever served, and the cache cleans up.
@Suite(.timeLimit(scaledMinutes: 1))
struct DiskCacheRecoveryTests {
    /// Ways an entry file can be damaged behind the cache's back.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case truncatedToHalf
        case truncatedToTenBytes
        case flippedDataByte
        case flippedChecksumByte
        case anotherKeysFile
        case garbage
        case deleted

        var testDescription: String { rawValue }

        func apply(to url: URL, otherEntry: URL) throws {
            var bytes = try Data(contentsOf: url)
            switch self {
            case .truncatedToHalf: bytes = bytes.prefix(bytes.count / 2)
            case .truncatedToTenBytes: bytes = bytes.prefix(10)
            case .flippedDataByte: bytes[bytes.count - 100] ^= 0x01
            case .flippedChecksumByte: bytes[bytes.count - 1] ^= 0xff
            case .anotherKeysFile: bytes = try Data(contentsOf: otherEntry)
            case .garbage: bytes = Data("<html>not an entry</html>".utf8)
            case .deleted:
                try FileManager.default.removeItem(at: url)
                return
            }
            try bytes.write(to: url)
        }
    }

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func openCache(sizeLimit: Int = 1_000_000) async throws -> DiskCache {
        try await DiskCache(configuration: .init(directory: directory.url, sizeLimit: sizeLimit))
    }

    private func storeTwo(in cache: DiskCache) async throws {
        try await cache.store(Data.pattern(count: 3000, seed: 1), metadata: .init(etag: "a"), for: "A")
        try await cache.store(Data.pattern(count: 2000, seed: 2), metadata: .init(etag: "b"), for: "B")
    }

    @Test(arguments: Damage.allCases)
    func damagedEntryIsNeverServedAndIsRemoved(damage: Damage) async throws {
        // Given entries A and B
        let cache = try await openCache()
        try await storeTwo(in: cache)

        // When B's file is damaged while the cache runs
        try damage.apply(to: directory.entryURL(forKey: "B"), otherEntry: directory.entryURL(forKey: "A"))

        // Then B reads as a miss, its file is gone, A is intact, and the accounting matches the disk
        #expect(await cache.entry(for: "B") == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.entryURL(forKey: "B").path))
        #expect(await cache.entry(for: "A")?.data == Data.pattern(count: 3000, seed: 1))
        #expect(cache.count == 1)
        #expect(try directory.entryFiles().bytes == cache.totalSize)
    }

    @Test(arguments: Damage.allCases)
    func damagedEntryFoundAtStartUpIsNeverServed(damage: Damage) async throws {
        // Given entries A and B written by an earlier run, then B's file damaged
        try await storeTwo(in: openCache())
        try damage.apply(to: directory.entryURL(forKey: "B"), otherEntry: directory.entryURL(forKey: "A"))

        // When the cache is opened again
        let cache = try await openCache()

        // Then B reads as a miss and its file is gone (at start-up, or at the read for damage only the checksum
        // reveals), A is intact, and the accounting matches the disk
        #expect(await cache.entry(for: "B") == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.entryURL(forKey: "B").path))
        #expect(await cache.entry(for: "A")?.metadata.etag == "a")
        #expect(cache.count == 1)
        #expect(try directory.entryFiles().bytes == cache.totalSize)
    }

    @Test func startUpRemovesLeftoverTemporaryFilesAndKeepsForeignFiles() async throws {
        // Given a directory with an entry, a temporary file left by a killed writer, and a file of someone else
        try await openCache().store(Data.pattern(count: 100), metadata: .init(), for: "kept")
        try Data.pattern(count: 5000).write(to: directory.fileURL(".tmp-2B9F6E1C-0000-4000-8000-000000000000"))
        try Data("notes".utf8).write(to: directory.fileURL("notes.txt"))

        // When the cache is opened
        let cache = try await openCache()

        // Then the temporary file is gone, the foreign file stays uncounted, and the entry is served
        #expect(try directory.fileNames() == [DiskCache.fileName(forKey: "kept"), "notes.txt"].sorted())
        #expect(cache.count == 1)
        #expect(try directory.entryFiles().bytes == cache.totalSize)
        #expect(await cache.entry(for: "kept")?.data == Data.pattern(count: 100))
    }

    @Test func restartKeepsEntriesAndTheirRecencyOrder() async throws {
        // Given a, b, c stored and then a read (order: a, c, b)
        let data = Data.pattern(count: 1000)
        let first = try await openCache()
        for key in ["a", "b", "c"] { try await first.store(data, metadata: .init(), for: key) }
        #expect(await first.entry(for: "a") != nil)
        let order = first.fileNamesByRecency
        #expect(order == ["a", "c", "b"].map(DiskCache.fileName(forKey:)))
        let size = first.totalSize / 3

        // When a new cache opens the same directory, with room for three entries
        let second = try await openCache(sizeLimit: 3 * size + size / 2)

        // Then it has the same entries in the same order, and a fourth store evicts b
        #expect(second.fileNamesByRecency == order)
        #expect(second.totalSize == first.totalSize)
        try await second.store(data, metadata: .init(), for: "d")
        #expect(await second.entry(for: "b") == nil)
        for key in ["a", "c", "d"] { #expect(await second.entry(for: key)?.data == data, "\(key)") }
    }

    @Test func restartWithASmallerLimitEvictsTheLeastRecentlyUsed() async throws {
        // Given a, b, c, d stored and then a read (order: a, d, c, b)
        let first = try await openCache()
        for key in ["a", "b", "c", "d"] {
            try await first.store(Data.pattern(count: 1000), metadata: .init(), for: key)
        }
        #expect(await first.entry(for: "a") != nil)
        let size = first.totalSize / 4

        // When the cache is opened again with room for two
        let second = try await openCache(sizeLimit: 2 * size + size / 2)

        // Then a and d remain, on disk as in the index
        #expect(second.fileNamesByRecency == ["a", "d"].map(DiskCache.fileName(forKey:)))
        #expect(try directory.entryFiles().count == 2)
        #expect(try directory.entryFiles().bytes == second.totalSize)
    }

    @Test func directoryUnderARegularFileIsUnavailable() async throws {
        // Given a path whose parent is a regular file
        try Data("file".utf8).write(to: directory.fileURL("plain"))
        let path = directory.fileURL("plain").appendingPathComponent("cache", isDirectory: true)

        // When / Then opening a cache there throws cacheUnavailable
        await expectUnavailable(at: path)
    }

    @Test func directoryThatIsARegularFileIsUnavailable() async throws {
        try Data("file".utf8).write(to: directory.fileURL("plain"))
        await expectUnavailable(at: directory.fileURL("plain"))
        #expect(try Data(contentsOf: directory.fileURL("plain")) == Data("file".utf8))
    }

    @Test(arguments: ["/proc/pinhole-cache", "/proc/self", "/sys/pinhole-cache"])
    func systemDirectoriesAreUnavailable(path: String) async throws {
        await expectUnavailable(at: URL(fileURLWithPath: path, isDirectory: true))
    }

    @Test func readOnlyDirectoryIsUnavailableUnlessTheUserCanWriteAnyway() async throws {
        // Given a directory with mode 0500 (root can still write there)
        let path = directory.fileURL("read-only")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: path.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path.path) }

        // When / Then opening fails exactly when the directory is not writable for this user
        if FileManager.default.isWritableFile(atPath: path.path) {
            _ = try await DiskCache(configuration: .init(directory: path))
        } else {
            await expectUnavailable(at: path)
        }
    }

    private func expectUnavailable(at path: URL) async {
        do {
            _ = try await DiskCache(configuration: .init(directory: path))
            Issue.record("opening a cache at \(path.path) did not throw")
        } catch let error as PinholeError {
            #expect(error.code == .cacheUnavailable)
            #expect(error.message.contains(path.path))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
