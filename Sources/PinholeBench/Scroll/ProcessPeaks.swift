import PinholeShared

/// The process's threads and resident memory at the start of a run and their peaks, sampled every frame
/// (``ProcessStats`` reads `/proc/self` cheaply enough for that).
///
/// Threads whose name starts with ``excludedThreadPrefix`` (the in-process test server's accept and connection
/// threads, `pinhole-srv-*`) are left out, because in the seeds' app the server was another machine. Resident
/// memory is `VmRSS` of `/proc/self/status` (bytes). Not thread-safe: one value belongs to one frame loop.
struct ProcessPeaks {
    /// Thread names with this prefix are not counted.
    static let excludedThreadPrefix = "pinhole-srv"

    private(set) var startThreads = 0
    private(set) var peakThreads = 0
    private(set) var startResidentBytes = 0
    private(set) var peakResidentBytes = 0

    /// Takes the first sample: the baseline.
    mutating func start() {
        let sample = Self.sample()
        startThreads = sample.threads
        peakThreads = sample.threads
        startResidentBytes = sample.residentBytes
        peakResidentBytes = sample.residentBytes
    }

    /// Takes one sample and updates the peaks.
    mutating func sample() {
        let sample = Self.sample()
        peakThreads = max(peakThreads, sample.threads)
        peakResidentBytes = max(peakResidentBytes, sample.residentBytes)
    }

    /// Threads (without the excluded ones) and `VmRSS` now.
    static func sample() -> (threads: Int, residentBytes: Int) {
        (ProcessStats.threadCount(excludingPrefixes: [excludedThreadPrefix]), ProcessStats.residentBytes())
    }
}
