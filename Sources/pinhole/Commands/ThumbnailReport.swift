/// What a `pinhole thumbnail` run did: the JSON object `--json` prints, and the source of the summary.
///
/// Sizes are in bytes and pixels, durations in seconds.
struct ThumbnailReport: Codable, Sendable, Equatable {
    /// A thumbnail that was written.
    struct Output: Codable, Sendable, Equatable {
        /// The input path (as typed, joined with the path found under it).
        var input: String
        /// The path of the thumbnail file.
        var output: String
        /// Thumbnail width in pixels.
        var width: Int
        /// Thumbnail height in pixels.
        var height: Int
        /// Size of the thumbnail file in bytes.
        var bytes: Int
        /// Frames in the thumbnail file, with `--animated` (1 for a still).
        var frames: Int? = nil
        /// The thumbnail's ThumbHash in base64 (https://evanw.github.io/thumbhash/), with `--json` and `--jsonl`.
        var thumbhash: String? = nil
        /// Where the input's time went, with `--jsonl`.
        var metrics: TaskMetrics? = nil
    }

    /// An input that failed, or the contact sheet when it could not be made.
    struct Failure: Codable, Sendable, Equatable {
        /// The input path (or the contact sheet's path).
        var input: String
        /// ``Pinhole/PinholeError/Code/kind`` (`not_an_image`, `truncated`, …), or `unknown`.
        var kind: String
        /// What was found, for people.
        var message: String
        /// Where the input's time went until it failed, with `--jsonl` (when the pipeline got the request).
        var metrics: TaskMetrics? = nil
    }

    /// The contact sheet that was written.
    struct ContactSheet: Codable, Sendable, Equatable {
        var output: String
        /// Width in pixels.
        var width: Int
        /// Height in pixels.
        var height: Int
        /// Size of the file in bytes.
        var bytes: Int
    }

    /// Inputs whose thumbnail was written.
    var succeeded: Int
    /// Inputs that failed.
    var failed: Int
    /// Wall-clock time from the first read to the last write, in seconds.
    var seconds: Double
    /// ``succeeded`` divided by ``seconds``.
    var imagesPerSecond: Double
    /// Peak resident set size of the process, in bytes.
    var peakRSSBytes: Int
    /// Minor page faults of the process (4 KiB pages the kernel mapped in; see `MallocTuning`).
    var pageFaults: Int = 0
    /// Bytes loaded from the inputs (each distinct source once; failed ones included when they were read).
    var bytesIn: Int
    /// Bytes of thumbnails written (the contact sheet not included).
    var bytesOut: Int
    /// Images processed at once.
    var jobs: Int
    /// The thumbnail box, in pixels (longest side).
    var size: Int
    /// `jpeg`, `png` or `webp`.
    var format: String
    /// The directory thumbnails were written to.
    var outputDirectory: String
    /// One entry per thumbnail, in input order.
    var outputs: [Output]
    /// One entry per failure: arguments that name no file or URL first (kind `invalid_input`), then the inputs
    /// that failed in input order, the contact sheet last.
    var errors: [Failure]
    /// The contact sheet, when one was asked for and written.
    var contactSheet: ContactSheet?
    /// Loads handed to a data loader (HTTP downloads and file reads), from the pipeline's metrics.
    var downloads: Int = 0
    /// Requests that joined a load or decode already running (request coalescing).
    var coalesced: Int = 0
    /// Requests answered from the memory cache.
    var memoryHits: Int = 0
    /// Loads answered from the disk cache (fresh, or revalidated with 304).
    var diskHits: Int = 0
    /// Full decodes of original bytes (a thumbnail read back from the disk cache is not one).
    var decodes: Int = 0
    /// Thumbnails answered by their encoded copy in the disk cache (no download, no full decode).
    var thumbnailDiskHits: Int = 0
    /// Loads answered by a failure kept in memory or stored on disk (the same error, no request to the origin).
    var failureHits: Int = 0

    /// The process exit status: 0 when every input succeeded and the contact sheet (if any) was written, else 1.
    var exitStatus: Int32 { errors.isEmpty ? 0 : 1 }
}
