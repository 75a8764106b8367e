import Foundation
import PinholeTestSupport

@testable import Pinhole

/// What a disk-cache directory holds, read file by file as `DiskCache` would serve it: entries that parse whole
/// (size, checksum, the key their name is made from), entries that do not (torn), and temporary files.
struct CacheDirectoryInspection: Sendable, CustomStringConvertible {
    var validEntries: [String] = []
    var tornEntries: [String] = []
    var temporaryFiles: [String] = []

    var description: String {
        "\(validEntries.count) valid, torn: \(tornEntries), temporary: \(temporaryFiles)"
    }

    /// Reads every file of `directory` on a thread of its own.
    static func of(_ directory: URL) async throws -> CacheDirectoryInspection {
        let names = try await onOwnThread { try FileManager.default.contentsOfDirectory(atPath: directory.path) }
        var inspection = CacheDirectoryInspection()
        for name in names.sorted() {
            if name.hasPrefix(DiskCacheFiles.temporaryPrefix) {
                inspection.temporaryFiles.append(name)
            } else if DiskCacheChecksum.isEntryFileName(name) {
                let file = try await readData(atPath: directory.appendingPathComponent(name).path)
                if isWholeEntry(file, named: name) {
                    inspection.validEntries.append(name)
                } else {
                    inspection.tornEntries.append(name)
                }
            }
        }
        return inspection
    }

    /// The number of entry files (whole or not) in `directory`, without reading them; 0 when it is missing.
    static func entryCount(in directory: URL) async -> Int {
        let names = await onOwnThread { (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] }
        return names.filter(DiskCacheChecksum.isEntryFileName).count
    }

    /// Whether `file` is an entry that parses whole and stores the key `name` is the hash of.
    static func isWholeEntry(_ file: Data, named name: String) -> Bool {
        guard let header = try? DiskCacheEntryFormat.parseHeader(file, fileSize: file.count),
            let key = try? DiskCacheEntryFormat.key(in: file, header: header),
            DiskCacheChecksum.fileName(forKey: key) == name,
            (try? DiskCacheEntryFormat.decode(file, expectedKey: key)) != nil
        else { return false }
        return true
    }
}
