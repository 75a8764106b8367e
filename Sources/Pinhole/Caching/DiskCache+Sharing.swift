import Foundation
import PinholeShared

extension DiskCache {
    /// The ``DiskCache`` open on `configuration.directory` in this process, or a new one: one instance per
    /// directory, as the cache's own rule asks (two instances on one directory keep separate indexes, so neither
    /// can enforce the size limit).
    ///
    /// Directories are compared by their standardized path (`a/./b` and `a/b` are one; symbolic links are not
    /// resolved). The first opener's size limit applies to every user. An instance is shared while someone holds
    /// it; once all have let go, the next call opens the directory again.
    ///
    /// - Throws: what ``init(configuration:pool:)`` throws (``PinholeError/Code/cacheUnavailable``).
    public static func shared(configuration: Configuration) async throws -> DiskCache {
        try await DiskCacheRegistry.instance.cache(for: configuration)
    }
}

/// The process-wide table behind ``DiskCache/shared(configuration:)``: an opening in progress, or a weak
/// reference to the open cache, per standardized directory path.
final class DiskCacheRegistry: Sendable {
    static let instance = DiskCacheRegistry()

    /// Holds a cache without keeping it alive.
    final class WeakCache: Sendable {
        weak let cache: DiskCache?
        init(_ cache: DiskCache) { self.cache = cache }
    }

    /// An opening in progress, or the open cache. A struct of two optionals, not an enum with two class payloads:
    /// Swift keeps such an enum's case in the spare bits of the pointer, which LeakSanitizer then does not take for
    /// a pointer, so every entry was reported as leaked.
    struct Entry {
        var opening: Task<DiskCache, any Error>?
        var open: WeakCache?
    }

    private let entries = Locked<[String: Entry]>([:])

    func cache(for configuration: DiskCache.Configuration) async throws -> DiskCache {
        let path = configuration.directory.standardizedFileURL.path
        let (task, existing): (Task<DiskCache, any Error>?, DiskCache?) = entries.withLock { entries in
            if let cache = entries[path]?.open?.cache { return (nil, cache) }
            if let task = entries[path]?.opening { return (task, nil) }
            // Entries of caches that have gone are dropped as new ones come, so the table stays as small as the
            // set of caches alive (plus the one being opened).
            entries = entries.filter { $0.value.opening != nil || $0.value.open?.cache != nil }
            let task = Task { try await DiskCache(configuration: configuration) }
            entries[path] = Entry(opening: task)
            return (task, nil)
        }
        if let existing { return existing }
        guard let task else { preconditionFailure("Internal inconsistency: no cache and no opening for \(path)") }
        do {
            let cache = try await task.value
            entries.withLock { entries in
                if entries[path]?.opening == task { entries[path] = Entry(open: WeakCache(cache)) }
            }
            return cache
        } catch {
            entries.withLock { entries in
                if entries[path]?.opening == task { entries[path] = nil }
            }
            throw error
        }
    }
}
