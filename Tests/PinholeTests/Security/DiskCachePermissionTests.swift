import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The disk cache holds private images (requests with credentials): its directory and its entry files are the
/// owner's alone, whatever the process's umask and whoever made the directory.
@Suite(.timeLimit(scaledMinutes: 1))
struct DiskCachePermissionTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test func aNewCacheDirectoryAndItsEntriesAreOwnerOnly() async throws {
        // Given a cache in a directory it creates
        let parent = try TemporaryDirectory()
        let directory = parent.url.appendingPathComponent("cache")
        let cache = try await DiskCache(configuration: .init(directory: directory))
        // When a private image is stored
        try await cache.store(Data("alice's photo".utf8), metadata: DiskCache.Metadata(), for: "https://x.test/me#1")
        // Then the directory is 0700 and the entry file 0600
        #expect(try Self.mode(directory.path) & 0o777 == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count == 1)
        for name in names {
            #expect(try Self.mode(directory.appendingPathComponent(name).path) & 0o777 == 0o600, "\(name)")
        }
    }

    @Test func anEntryInAnOpenDirectoryIsStillOwnerOnly() async throws {
        // Given a cache directory made beforehand, readable by everyone (an older version, or the user)
        let directory = try TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        let cache = try await DiskCache(configuration: .init(directory: directory.url))
        // When an entry is stored, Then its file is 0600
        try await cache.store(Data("bob's photo".utf8), metadata: DiskCache.Metadata(), for: "https://x.test/me#2")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.isEmpty)
        for name in names {
            #expect(try Self.mode(directory.url.appendingPathComponent(name).path) & 0o077 == 0, "\(name)")
        }
    }
}
