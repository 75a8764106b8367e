/// What makes two requests the same work: the one place that decides which callers may share a job.
///
/// Two requests share a job exactly when their job keys are equal. A job key holds
/// - everything that changes the bytes or pixels a caller gets: the source key (``ImageRequest/sourceKey``, with
///   the hash of the private headers), the request's own headers and timeout, and, for image jobs, the processing
///   (``ImageKey``: the thumbnail box and content mode, and the processors' identifiers);
/// - the request's cache access, which changes where the bytes may come from or go to (``CacheAccess``, derived
///   from ``ImageRequest/Options``: disk reads and writes, memory writes, and whether the source may be loaded).
///
/// ``ImageRequest/priority`` is never part of a key: requests that differ only in priority share work, and the job
/// runs at the highest priority of its callers. Options that change neither are not part of a key either
/// (``ImageRequest/Options/disableMemoryCacheReads``: the memory cache is read before any job).
///
/// To extend the identity (processors, per-request headers…), add a field to ``ImageKey`` when it changes the pixels
/// of one source's bytes, or to ``DataJobKey`` when it changes the bytes a source gives; never compare requests
/// anywhere else.
extension ImageRequest {
    /// Which caches one request may read and write, and whether it may load its source: the part of
    /// ``ImageRequest/options`` that changes a job. (What the pipeline's disk cache keeps at all is the
    /// pipeline-wide ``DiskCachePolicy``.)
    ///
    /// Canonical: options that lead to the same behaviour give the same access (`disableDiskCache` with or without
    /// `reloadIgnoringCachedData` never touches the disk), so such requests still share.
    struct CacheAccess: Sendable, Hashable {
        /// A disk-cache entry may answer (fresh, or revalidated): not under `disableDiskCache` nor
        /// `reloadIgnoringCachedData`.
        var readsDiskCache: Bool
        /// Downloaded bytes may be stored on disk: not under `disableDiskCache`.
        var writesDiskCache: Bool
        /// The decoded image may be stored in the memory cache: not under `disableMemoryCacheWrites`.
        var writesMemoryCache: Bool
        /// The source may be loaded (network, file): not under `returnCacheDataDontLoad`.
        var loadsFromSource: Bool

        init(_ options: Options) {
            let usesDisk = !options.contains(.disableDiskCache)
            readsDiskCache =
                usesDisk && !options.contains(.reloadIgnoringCachedData)
                && !options.contains(.disableDiskCacheReads)
            writesDiskCache = usesDisk && !options.contains(.disableDiskCacheWrites)
            writesMemoryCache = !options.contains(.disableMemoryCacheWrites)
            loadsFromSource = !options.contains(.returnCacheDataDontLoad)
        }
    }

    /// This request's cache access.
    var cacheAccess: CacheAccess { CacheAccess(options) }

    /// The key of the data job that fetches this request's original bytes.
    var dataJobKey: DataJobKey {
        let access = cacheAccess
        return DataJobKey(
            sourceKey: sourceKey, readsDiskCache: access.readsDiskCache,
            writesDiskCache: access.writesDiskCache, loadsFromSource: access.loadsFromSource,
            headers: headers, timeout: timeout, isInline: data != nil)
    }

    /// The key of the image job that decodes this request's image.
    var imageJobKey: ImageJobKey {
        ImageJobKey(image: imageKey, data: dataJobKey, writesMemoryCache: cacheAccess.writesMemoryCache)
    }
}

/// Identifies a data job: the source's bytes and where they may come from and go to.
///
/// Callers with equal keys share one load. The job fetches the URL of the caller that started it: requests with
/// one source key are taken to name the same bytes (that is what a source-key override says).
struct DataJobKey: Sendable, Hashable, CustomStringConvertible {
    /// The key of the original bytes (and of their disk-cache entry).
    let sourceKey: String
    /// Whether the disk cache may answer.
    let readsDiskCache: Bool
    /// Whether the downloaded bytes may be stored on disk.
    let writesDiskCache: Bool
    /// Whether the source may be loaded (not offline, `returnCacheDataDontLoad`).
    let loadsFromSource: Bool
    /// The request's own HTTP headers (they may change the bytes: `Accept`, credentials…).
    let headers: [String: String]
    /// The request's transfer deadline (a joiner must not inherit a longer or shorter one).
    let timeout: Duration?
    /// Whether the bytes are in hand (``ImageRequest/init(id:data:thumbnail:processors:priority:options:)``).
    let isInline: Bool

    var description: String {
        "\(sourceKey) [disk \(readsDiskCache ? "r" : "-")\(writesDiskCache ? "w" : "-")]"
            + (loadsFromSource ? "" : " [offline]") + (headers.isEmpty ? "" : " [\(headers.count) headers]")
    }
}

extension DataJobKey {
    /// The same job without disk-cache reads (after a stored entry proved bad).
    var withoutDiskReads: DataJobKey {
        DataJobKey(
            sourceKey: sourceKey, readsDiskCache: false, writesDiskCache: writesDiskCache,
            loadsFromSource: loadsFromSource, headers: headers, timeout: timeout, isInline: isInline)
    }
}

/// Identifies an image job: the processed image (``ImageKey``), the data job it needs, and whether its result may
/// enter the memory cache.
struct ImageJobKey: Sendable, Hashable, CustomStringConvertible {
    /// The processed image; also the memory-cache key.
    let image: ImageKey
    /// The data job whose bytes it decodes.
    let data: DataJobKey
    /// Whether the decoded image may be stored in the memory cache.
    let writesMemoryCache: Bool

    var description: String { "\(image) \(data)\(writesMemoryCache ? "" : " [no memory write]")" }
}
