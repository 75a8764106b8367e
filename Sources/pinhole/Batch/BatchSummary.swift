import Foundation

/// The end of a batch run (`--input-list`, `--shard`, `--skip-existing` or `--jsonl`): counters only, so it
/// is the same size for 10 inputs or 10 million. `--json` prints it as one object; `--jsonl` prints it as the
/// last line, `{"summary":{…}}`. Per-input results are the `--jsonl` lines (``BatchRecord``); a batch run
/// keeps no list of them.
///
/// Sizes are in bytes, durations in seconds.
struct BatchSummary: Codable, Sendable, Equatable {
    /// Inputs of this run (of this shard): written + failed + skipped; with several sizes, outputs (one per size).
    var inputs: Int
    /// Inputs read from the list or the arguments, all shards together (equals ``inputs`` without `--shard`).
    var listed: Int
    /// Thumbnails written.
    var succeeded: Int
    /// Inputs that failed (a failure to read the list counts as one).
    var failed: Int
    /// Inputs left alone because their output was already whole (`--skip-existing`).
    var skipped: Int
    /// Wall-clock time of the run, in seconds.
    var seconds: Double
    /// ``succeeded`` divided by ``seconds``.
    var imagesPerSecond: Double
    /// Peak resident set size of the process, in bytes.
    var peakRSSBytes: Int
    /// Minor page faults of the process (4 KiB pages the kernel mapped in; see `MallocTuning`).
    var pageFaults: Int = 0
    /// Bytes loaded from the inputs.
    var bytesIn: Int
    /// Bytes of thumbnails written.
    var bytesOut: Int
    /// Images processed at once.
    var jobs: Int
    /// The thumbnail box, in pixels (longest side).
    var size: Int
    /// `jpeg`, `png` or `webp`.
    var format: String
    /// The directory thumbnails were written to.
    var outputDirectory: String
    /// `I/N` with `--shard`, else absent.
    var shard: String?
    /// Loads handed to a data loader (HTTP downloads and file reads).
    var downloads: Int
    /// Requests that joined a load or decode already running.
    var coalesced: Int
    /// Requests answered from the memory cache.
    var memoryHits: Int
    /// Loads answered from the disk cache.
    var diskHits: Int

    /// 0 when no input failed, else 1.
    var exitStatus: Int32 { failed == 0 ? 0 : 1 }

    /// The `--jsonl` summary line's shape.
    struct Line: Codable, Sendable, Equatable {
        var summary: BatchSummary
    }

    /// The human summary (failures were printed on stderr as they happened):
    ///
    /// ```
    /// 95 thumbnails written to out, 3 failed, 2 skipped (100 inputs of 300 listed, shard 1/3, 2 jobs)
    /// 3.21 s, 29.6 images/s; 53.1 MB in, 1.2 MB out; peak RSS 142.3 MB
    /// ```
    var text: String {
        var scope = "\(inputs) input\(inputs == 1 ? "" : "s")"
        if listed != inputs { scope += " of \(listed) listed" }
        if let shard { scope += ", shard \(shard)" }
        scope += ", \(jobs) job\(jobs == 1 ? "" : "s")"
        return [
            "\(succeeded) thumbnail\(succeeded == 1 ? "" : "s") written to \(outputDirectory), \(failed) failed, "
                + "\(skipped) skipped (\(scope))",
            String(format: "%.2f s, %.1f images/s; ", seconds, imagesPerSecond)
                + "\(ThumbnailReport.bytes(bytesIn)) in, \(ThumbnailReport.bytes(bytesOut)) out; "
                + "peak RSS \(ThumbnailReport.bytes(peakRSSBytes))",
        ].joined(separator: "\n")
    }

    /// One JSON object, keys sorted; `pretty` for `--json`, one line for `--jsonl`.
    func json(pretty: Bool) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty
            ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        return pretty ? try encoder.encode(self) : try encoder.encode(Line(summary: self))
    }
}
