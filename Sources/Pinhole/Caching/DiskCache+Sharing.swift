import Foundation

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

    enum Entry {
        case opening(Task<DiskCache, any Error>)
        case open(WeakCache)
    }

    private let entries = Locked<[String: Entry]>([:])

    func cache(for configuration: DiskCache.Configuration) async throws -> DiskCache {
        let path = configuration.directory.standardizedFileURL.path
        let (task, existing): (Task<DiskCache, any Error>?, DiskCache?) = entries.withLock { entries in
            switch entries[path] {
            case .open(let box)? where box.cache != nil:
                return (nil, box.cache)
            case .opening(let task)?:
                return (task, nil)
            default:
                let task = Task { try await DiskCache(configuration: configuration) }
                entries[path] = .opening(task)
                return (task, nil)
            }
        }
        if let existing { return existing }
        guard let task else { preconditionFailure("Internal inconsistency: no cache and no opening for \(path)") }
        do {
            let cache = try await task.value
            entries.withLock { entries in
                if case .opening(let current)? = entries[path], current == task { entries[path] = .open(WeakCache(cache)) }
            }
            return cache
        } catch {
            entries.withLock { entries in
                if case .opening(let current)? = entries[path], current == task { entries[path] = nil }
            }
            throw error
        }
    }
}
