import Foundation

/// The blocking file operations of a ``DiskCache``. Every function here blocks and must run on a
/// ``WorkerThreadPool`` thread, never on Swift's cooperative pool.
struct DiskCacheFiles: Sendable {
    /// Temporary files start with this prefix; any found at start-up are leftovers of a killed writer.
    static let temporaryPrefix = ".tmp-"

    /// A file found in the directory at start-up that parses as an entry.
    struct ScannedEntry {
        var name: String
        var size: Int
        var modified: Date
    }

    let directory: URL

    func url(for name: String) -> URL {
        directory.appendingPathComponent(name, isDirectory: false)
    }

    /// Creates the directory if needed (owner-only, `0700`: entries may hold private images) and proves that a
    /// file can be created in it.
    ///
    /// - Throws: ``PinholeError/Code/cacheUnavailable`` when the directory cannot be created or written.
    func prepareDirectory() throws(PinholeError) {
        let path = directory.path
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let probe = try writeTemporary(Data("probe".utf8))
            try FileManager.default.removeItem(at: probe)
        } catch {
            throw PinholeError(
                .cacheUnavailable,
                "disk cache directory \(path) cannot be created or written",
                underlying: error
            )
        }
    }

    /// Lists the directory: removes temporary files and files with entry names whose header or key does not
    /// parse, and returns the valid entries, least recently modified first. Other files are left alone.
    func scan() -> [ScannedEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var entries: [ScannedEntry] = []
        for name in names {
            if name.hasPrefix(Self.temporaryPrefix) {
                remove(name)
            } else if DiskCacheChecksum.isEntryFileName(name) {
                if let entry = scanEntry(name) { entries.append(entry) } else { remove(name) }
            }
        }
        return entries.sorted { $0.modified < $1.modified }
    }

    private func scanEntry(_ name: String) -> ScannedEntry? {
        let url = url(for: name)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.intValue,
            let modified = attributes[.modificationDate] as? Date,
            let handle = try? FileHandle(forReadingFrom: url)
        else { return nil }
        defer { try? handle.close() }
        guard let headerBytes = try? handle.read(upToCount: DiskCacheEntryFormat.headerSize),
            let header = try? DiskCacheEntryFormat.parseHeader(headerBytes, fileSize: size),
            let keyBytes = try? handle.read(upToCount: header.keyLength),
            let key = try? DiskCacheEntryFormat.key(in: headerBytes + keyBytes, header: header),
            DiskCacheChecksum.fileName(forKey: key) == name
        else { return nil }
        return ScannedEntry(name: name, size: size, modified: modified)
    }

    /// Reads a whole file; `nil` when it is missing or unreadable. Blocking: called only on the cache's
    /// `WorkerThreadPool` (`.io`), never on the cooperative pool.
    func read(_ name: String) -> Data? {
        try? Data(contentsOf: url(for: name))
    }

    /// Writes `data` to a new temporary file in the directory, readable by the owner only (`0600`: a directory
    /// made by an older version, or by the user, may be open to others), and returns its URL.
    func writeTemporary(_ data: Data) throws -> URL {
        let url = url(for: Self.temporaryPrefix + UUID().uuidString)
        do {
            try data.write(to: url, options: .withoutOverwriting)
            guard chmod(url.path, 0o600) == 0 else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
            }
        } catch {
            remove(url)  // a partial file (disk full)
            throw error
        }
        return url
    }

    /// Atomically replaces (or creates) the entry file `name` with the temporary file at `temporary`.
    ///
    /// `rename(2)` (reached through Foundation, no C import): `FileManager.moveItem` refuses to replace an
    /// existing file and `replaceItemAt` fails on Linux, and removing first would open a window without a file.
    func commit(_ temporary: URL, as name: String) throws {
        let destination = url(for: name)
        guard rename(temporary.path, destination.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
        }
    }

    /// Sets a file's modification time (its recency after a restart); failures are ignored.
    func setModified(_ name: String, to date: Date) {
        try? FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url(for: name).path)
    }

    /// Deletes a file; a missing file is not an error.
    func remove(_ name: String) {
        try? FileManager.default.removeItem(at: url(for: name))
    }

    func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}
