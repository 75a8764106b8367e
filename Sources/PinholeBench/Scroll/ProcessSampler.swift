import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Samples the process's threads and resident memory cheaply enough to do it every frame, and keeps the peaks.
///
/// Threads are counted from `/proc/self/task`; threads whose name starts with ``excludedThreadPrefix`` (the
/// in-process test server's accept and connection threads, `pinhole-srv-*`) are left out, because in the
/// seeds' app the server was another machine. Resident memory is `VmRSS` of `/proc/self/status` (bytes).
/// Not thread-safe: one sampler belongs to one frame loop.
struct ProcessSampler {
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
        (countedThreads(), residentBytes())
    }

    /// Threads of this process whose name does not start with ``excludedThreadPrefix``.
    static func countedThreads() -> Int {
        guard let directory = opendir("/proc/self/task") else { return ProcessStats.threadCount() }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.first?.isNumber == true else { continue }
            if !threadName(task: name).hasPrefix(excludedThreadPrefix) { count += 1 }
        }
        return count
    }

    /// The `comm` of one thread of this process (at most 15 bytes), or "" when it is gone.
    static func threadName(task: String) -> String {
        let descriptor = open("/proc/self/task/\(task)/comm", O_RDONLY)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return "" }
        return String(decoding: buffer[0..<count].prefix { $0 != 10 && $0 != 0 }, as: UTF8.self)
    }

    /// `VmRSS` in bytes, read with one `read` of `/proc/self/status`; 0 if unknown.
    static func residentBytes() -> Int {
        let descriptor = open("/proc/self/status", O_RDONLY)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return 0 }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        let fields = line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" })
        return (fields.first.flatMap { Int($0) } ?? 0) * 1024
    }
}
