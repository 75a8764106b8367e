import Dispatch
import Glibc
import Pinhole
import PinholeShared

/// Samples the process's thread count and peak resident memory every 100 ms on a utility dispatch queue (never
/// on the main thread), from `/proc/self/status`; and lowers the priority of new decoding threads
/// (``DecodeThreadPriority``).
///
/// Thread-safe; the figures are read under a lock.
final class ProcessSampler: Sendable {
    struct Sample: Sendable {
        var threads = 0
        var peakThreads = 0
        var peakResidentBytes = 0
    }

    private let state = Locked(Sample())
    private let timer: RepeatingTimer

    /// - Parameter priority: applied to new decoding threads at every sample; `nil` leaves priorities alone.
    init(priority: DecodeThreadPriority? = nil) {
        let state = self.state
        timer = RepeatingTimer(interval: .milliseconds(100), queue: DispatchQueue.global(qos: .utility)) {
            Self.sample(into: state)
            priority?.apply()
        }
        Self.sample(into: state)
        priority?.apply()
        timer.start()
    }

    deinit {
        timer.cancel()
    }

    /// The latest figures.
    var sample: Sample { state.withLock { $0 } }

    func stop() { timer.cancel() }

    private static func sample(into state: Locked<Sample>) {
        let status = readStatus()
        let threads = value(of: "Threads:", in: status) ?? 0
        let peak = (value(of: "VmHWM:", in: status) ?? 0) * 1024
        state.withLock { sample in
            sample.threads = threads
            sample.peakThreads = max(sample.peakThreads, threads)
            sample.peakResidentBytes = max(sample.peakResidentBytes, peak)
        }
    }

    /// `/proc/self/status` as text (served from kernel memory; a few microseconds).
    static func readStatus() -> String {
        let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The number after `key` on its line of `status` (kB for `Vm*` lines).
    static func value(of key: String, in status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix(key) {
            return line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap {
                Int($0)
            }
        }
        return nil
    }
}
