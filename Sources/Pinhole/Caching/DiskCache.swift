public import Foundation
import PinholeShared
import Synchronization

/// A disk cache of original response bytes with their HTTP metadata, least recently used first out, under a
/// hard size limit in bytes (``Configuration/sizeLimit``, 150,000,000 by default).
///
/// Each entry is one file in ``Configuration/directory``, named by a hash of its key and written atomically
/// (a temporary file, then a rename), with a checksum; see `DiskCacheEntryFormat`. A torn, truncated or
/// corrupt file, or one that holds another key, is never served: it is removed and reads as a miss.
///
/// The size limit is enforced on every write before the new entry becomes visible: least recently used entries
/// are deleted until the new one fits, so after any store ``totalSize`` ≤ ``Configuration/sizeLimit`` and the
/// sizes of the entry files on disk add up to ``totalSize``. A read makes an entry the most recently used one
/// and sets its file's modification time, so the order survives a restart.
///
/// ``ImagePipeline`` uses it as a private HTTP cache; what it stores and for how long is ``DiskCacheFreshness``.
///
/// Safe from any isolation. All file I/O runs on the given ``WorkerThreadPool`` (``WorkerThreadPool/io`` by
/// default), never on Swift's cooperative pool; the index lives in memory behind a `Locked`.
///
/// - Important: Use one `DiskCache` per directory. Two instances (or two processes) on the same directory keep
///   separate indexes, so neither can enforce the size limit for both.
public final class DiskCache: Sendable {
    /// The directory and the size limit.
    public let configuration: Configuration

    private let pool: WorkerThreadPool
    private let files: DiskCacheFiles
    private let index: Locked<DiskCacheIndex>
    /// Serializes every change that touches both the index and the directory (commit, eviction, removal,
    /// access stamps), so that the two agree. Taken only on pool threads, always before `index`.
    /// Serialises commits (index + directory changes); counts them. (A `Locked<Void>` trips ThreadSanitizer's
    /// Swift access instrumentation on its zero-sized state, so the lock guards a real counter.)
    private let commitLock = Locked<UInt64>(0)

    /// Opens the cache: creates the directory if needed, removes leftover temporary files, and rebuilds the index
    /// from the entry files' headers (a file that does not parse is removed). If the entries exceed the size
    /// limit, the least recently modified ones are removed.
    ///
    /// - Parameters:
    ///   - configuration: the directory and the size limit.
    ///   - pool: where file I/O runs; ``WorkerThreadPool/io`` by default.
    /// - Throws: ``PinholeError/Code/cacheUnavailable`` when the directory cannot be created or written;
    ///   `CancellationError` when the task is cancelled before the work starts.
    public init(configuration: Configuration, pool: WorkerThreadPool = .io) async throws {
        let files = DiskCacheFiles(directory: configuration.directory)
        let limit = max(0, configuration.sizeLimit)
        let index = try await pool.run { () throws -> DiskCacheIndex in
            try files.prepareDirectory()
            var index = DiskCacheIndex()
            for entry in files.scan() {
                index.restore(name: entry.name, size: entry.size, modified: entry.modified)
            }
            for name in index.evict(toSize: limit) {
                files.remove(name)
            }
            return index
        }
        self.configuration = configuration
        self.pool = pool
        self.files = files
        self.index = Locked(index)
    }

    /// The entry stored for `key`, or `nil` on a miss. A hit becomes the most recently used entry.
    ///
    /// The file is read whole and validated (size, checksum, stored key); an invalid file is removed and reads
    /// as a miss. A cancelled task gets `nil` if the read had not started.
    public func entry(for key: String) async -> Entry? {
        let name = Self.fileName(forKey: key)
        guard let generation = index.withLock({ $0.generation(of: name) }) else { return nil }
        return try? await pool.run { [self] in readEntry(key: key, name: name, generation: generation) }
    }

    /// Stores `data` with `metadata` for `key`, replacing any previous entry.
    ///
    /// Least recently used entries are deleted first until the new file fits under the size limit. An entry whose
    /// file (data + key + metadata + 28 bytes) is larger than the limit is not stored, and any previous entry for
    /// `key` is removed.
    ///
    /// - Throws: ``PinholeError/Code/cacheUnavailable`` when the file cannot be written (the directory is gone,
    ///   the disk is full); `CancellationError` when the task is cancelled before the work starts.
    public func store(_ data: Data, metadata: Metadata, for key: String) async throws {
        try await pool.run { [self] in try write(data, metadata: metadata, key: key, replacing: nil) }
    }

    /// Replaces the metadata of the entry for `key` and keeps its data (after a `304 Not Modified`); does nothing
    /// when there is no valid entry. When the write fails the old entry stays, whole.
    ///
    /// - Returns: whether the entry was rewritten (`false`: there was no valid entry).
    /// - Throws: ``PinholeError/Code/cacheUnavailable`` when the new file cannot be written (the disk is full, the
    ///   directory is gone or read-only); `CancellationError` when the task is cancelled before the work starts.
    @discardableResult
    public func updateMetadata(_ metadata: Metadata, for key: String) async throws -> Bool {
        let name = Self.fileName(forKey: key)
        guard let generation = index.withLock({ $0.generation(of: name) }) else { return false }
        return try await pool.run { [self] in
            guard let entry = readEntry(key: key, name: name, generation: generation) else { return false }
            try write(entry.data, metadata: metadata, key: key, replacing: generation)
            return true
        }
    }

    /// Removes the entry for `key`, if any.
    public func removeEntry(for key: String) async {
        let name = Self.fileName(forKey: key)
        _ = try? await pool.run { [self] in
            commitLock.withLock { _ in
                index.withLock { _ = $0.remove(name) }
                files.remove(name)
            }
        }
    }

    /// Removes every entry. Files in the directory that are not entries are left alone.
    public func removeAll() async {
        _ = try? await pool.run { [self] in
            commitLock.withLock { _ in
                for name in index.withLock({ $0.removeAll() }) {
                    files.remove(name)
                }
            }
        }
    }

    /// The bytes taken by the entry files, as accounted by the index; a snapshot, safe from any isolation.
    public var totalSize: Int { index.withLock { $0.totalSize } }

    /// The number of entries; a snapshot, safe from any isolation.
    public var count: Int { index.withLock { $0.count } }

    /// The entry file name for `key` (32 hexadecimal digits: two FNV-1a 64 hashes).
    package static func fileName(forKey key: String) -> String {
        DiskCacheChecksum.fileName(forKey: key)
    }

    /// The entry file names from the most to the least recently used; for tests and diagnostics.
    package var fileNamesByRecency: [String] { index.withLock { $0.namesByRecency } }

    // MARK: - Work on pool threads

    /// Reads and validates the file; touches it on success, drops it (if still `generation`) on failure.
    private func readEntry(key: String, name: String, generation: UInt64) -> Entry? {
        let entry = files.read(name).flatMap { try? DiskCacheEntryFormat.decode($0, expectedKey: key) }
        commitLock.withLock { _ in
            if entry != nil {
                if let stamp = index.withLock({ $0.touch(name, generation: generation) }) {
                    files.setModified(name, to: stamp)
                }
            } else if index.withLock({ $0.remove(name, ifGeneration: generation) }) != nil {
                files.remove(name)
            }
        }
        return entry
    }

    /// Encodes, writes to a temporary file, makes room, and renames into place. With `replacing`, commits only
    /// if the entry still has that generation (nobody stored or removed it meanwhile).
    private func write(_ data: Data, metadata: Metadata, key: String, replacing generation: UInt64?) throws {
        let name = Self.fileName(forKey: key)
        let limit = max(0, configuration.sizeLimit)
        let file: Data
        let temporary: URL
        do {
            file = try DiskCacheEntryFormat.encode(key: key, metadata: metadata, data: data)
            guard file.count <= limit else {
                if generation == nil { removeFile(name) }
                return
            }
            temporary = try files.writeTemporary(file)
        } catch {
            throw PinholeError(
                .cacheUnavailable,
                "cannot write a disk cache entry in \(files.directory.path)",
                underlying: error
            )
        }
        try commitLock.withLock { _ throws(PinholeError) in
            if let generation, index.withLock({ $0.generation(of: name) }) != generation {
                files.remove(temporary)
                return
            }
            let evicted = index.withLock { $0.makeRoom(for: name, size: file.count, limit: limit) }
            for victim in evicted {
                files.remove(victim)
            }
            do {
                try files.commit(temporary, as: name)
            } catch {
                files.remove(temporary)
                files.remove(name)  // the index no longer lists the old file
                throw PinholeError(.cacheUnavailable, "cannot rename a disk cache entry into place", underlying: error)
            }
            let stamp = index.withLock { index in
                index.insert(name: name, size: file.count)
                return index.nextStamp()
            }
            files.setModified(name, to: stamp)
        }
    }

    private func removeFile(_ name: String) {
        commitLock.withLock { _ in
            index.withLock { _ = $0.remove(name) }
            files.remove(name)
        }
    }
}
