import Foundation
import Pinhole
import PinholeShared

/// The two halves of the disk-cache crash test: a writer that stores self-checking entries until it is killed
/// (`pinhole debug disk-cache-writer DIR --seed N`), and a checker that reopens the cache and verifies every
/// entry it serves (`pinhole debug disk-cache-check DIR`).
///
/// Entry payload: `"<key>\n"`, then 500…40,000 seeded random bytes, then the FNV-1a 64 hash of everything
/// before it (8 bytes, big-endian). An entry that is torn, truncated or belongs to another key fails the hash
/// or the key line. Keys are `entry-0` … `entry-63`, so stores replace entries and the size limit evicts.
enum DiskCacheWriter {
    static let keys = (0..<64).map { "entry-\($0)" }
    static let defaultLimit = 400_000

    struct CheckReport: Codable {
        var entries = 0
        var verified = 0
        var mismatched: [String] = []
        var indexedBytes = 0
        var bytesOnDisk = 0
        var sizeLimit = 0
        var storeAndReadWorks = false
        var passed = false
    }

    static func runWriter(_ arguments: [String]) async throws(UsageError) -> Int32 {
        guard let directory = DebugCommand.positionals(arguments).first else { throw UsageError("no directory") }
        let seed = UInt64(try DebugCommand.integer("--seed", in: arguments, default: 1))
        let limit = try DebugCommand.integer("--limit", in: arguments, default: defaultLimit)
        var rng = SeededGenerator(seed: seed)
        do {
            let cache = try await DiskCache(
                configuration: .init(directory: URL(fileURLWithPath: directory), sizeLimit: limit))
            FileHandle.standardOutput.write(Data("ready\n".utf8))
            // Until killed: mostly stores, some reads and removals.
            for _ in 0..<1_000_000 {
                let key = keys.randomElement(using: &rng)!
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: await cache.removeEntry(for: key)
                case 1, 2: _ = await cache.entry(for: key)
                default: try await cache.store(payload(for: key, using: &rng), metadata: metadata(), for: key)
                }
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("disk-cache-writer: \(error)\n".utf8))
            return 1
        }
    }

    static func runCheck(_ arguments: [String]) async throws(UsageError) -> Int32 {
        guard let directory = DebugCommand.positionals(arguments).first else { throw UsageError("no directory") }
        let limit = try DebugCommand.integer("--limit", in: arguments, default: defaultLimit)
        var report = CheckReport(sizeLimit: limit)
        do {
            let url = URL(fileURLWithPath: directory)
            let cache = try await DiskCache(configuration: .init(directory: url, sizeLimit: limit))
            for key in keys {
                guard let entry = await cache.entry(for: key) else { continue }
                report.entries += 1
                if verify(entry.data, key: key) { report.verified += 1 } else { report.mismatched.append(key) }
            }
            report.indexedBytes = cache.totalSize
            report.bytesOnDisk = try bytesOnDisk(url)
            // It keeps working: a fresh entry stores and reads back intact.
            var rng = SeededGenerator(seed: 99)
            let fresh = payload(for: keys[0], using: &rng)
            try await cache.store(fresh, metadata: metadata(), for: keys[0])
            report.storeAndReadWorks = await cache.entry(for: keys[0])?.data == fresh
            report.passed =
                report.mismatched.isEmpty && report.indexedBytes <= limit
                && report.bytesOnDisk <= limit && report.storeAndReadWorks
        } catch {
            FileHandle.standardError.write(Data("disk-cache-check: \(error)\n".utf8))
        }
        DebugCommand.printJSON(report)
        return report.passed ? 0 : 1
    }

    static func payload(for key: String, using rng: inout SeededGenerator) -> Data {
        var bytes = Array("\(key)\n".utf8)
        let count = Int.random(in: 500...40_000, using: &rng)
        bytes.reserveCapacity(bytes.count + count + 8)
        for _ in 0..<(count + 7) / 8 {
            let word = rng.next()
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        let hash = StableHash.fnv1a64(bytes)
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: hash >> UInt64(shift)))
        }
        return Data(bytes)
    }

    /// Whether `data` is a whole payload written for `key`.
    static func verify(_ data: Data, key: String) -> Bool {
        let bytes = [UInt8](data)
        let prefix = Array("\(key)\n".utf8)
        guard bytes.count >= prefix.count + 8, bytes.starts(with: prefix) else { return false }
        let body = bytes.dropLast(8)
        let stored = bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return StableHash.fnv1a64(body) == stored
    }

    static func metadata() -> DiskCache.Metadata {
        DiskCache.Metadata(contentType: "application/octet-stream", storedAt: Date())
    }

    /// Bytes of every regular file in `directory` (entries and anything else left there).
    static func bytesOnDisk(_ directory: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.fileSizeKey])
            .reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
    }
}
