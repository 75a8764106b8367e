import PinholeShared

/// Downloads that finished but whose bytes are not in the disk cache yet: the bytes wait for a decode to prove
/// them good (``LoadedData/claimDiskStore()``). A data job for the same source that starts meanwhile (another
/// size of it, asked for after the download ended) takes these bytes instead of downloading them again; without
/// this, the gap between the end of a download and its disk store cost one more origin request per source.
///
/// Holds its downloads weakly: an entry lives as long as an image job still uses its bytes, never longer, so it
/// costs no memory of its own. An entry goes when its bytes reach the disk cache (``forget(_:for:)``), when a newer
/// download of its source replaces it, or when the last job using it ends. Thread-safe.
final class UnstoredDownloads: Sendable {
    private struct Entry {
        weak var loaded: LoadedData?
    }

    private let entries = Locked<[String: Entry]>([:])

    /// Keeps `loaded` (a download with a pending disk entry) for `sourceKey`, in place of any older one.
    func hold(_ loaded: LoadedData, for sourceKey: String) {
        entries.withLock { entries in
            entries = entries.filter { $0.value.loaded != nil }
            entries[sourceKey] = Entry(loaded: loaded)
        }
    }

    /// The download of `sourceKey` still in use and not yet stored; `nil` when there is none.
    func loaded(for sourceKey: String) -> LoadedData? {
        entries.withLock { entries in
            guard let loaded = entries[sourceKey]?.loaded else {
                entries[sourceKey] = nil
                return nil
            }
            return loaded
        }
    }

    /// Drops `loaded` once its bytes are on disk (the disk cache answers from then on); a newer download held
    /// for `sourceKey` stays.
    func forget(_ loaded: LoadedData, for sourceKey: String) {
        entries.withLock { entries in
            if let held = entries[sourceKey]?.loaded, held !== loaded { return }
            entries[sourceKey] = nil
        }
    }

    /// Sources whose download is held and still in use.
    var count: Int { entries.withLock { $0.values.count { $0.loaded != nil } } }
}
