import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU time, RSS and peak RSS of another process, read from `/proc/PID/stat` and `/proc/PID/status` (Linux).
///
/// procfs is served by the kernel from memory, so a read does not wait on a disk (a few microseconds): the
/// reads are safe from any isolation.
public struct ProcessSample: Sendable, Hashable {
    /// User + system CPU seconds so far (all threads).
    public var cpuSeconds: Double
    /// Peak resident set size so far (`VmHWM`), in bytes.
    public var peakResidentBytes: Int
    /// Resident set size now (`VmRSS`), in bytes; 0 when not read.
    public var residentBytes: Int

    public init(cpuSeconds: Double, peakResidentBytes: Int, residentBytes: Int = 0) {
        self.cpuSeconds = cpuSeconds
        self.peakResidentBytes = peakResidentBytes
        self.residentBytes = residentBytes
    }

    /// The figures of `pid` now, or `nil` when it has exited.
    public static func read(pid: Int32) -> ProcessSample? {
        guard let stat = text("/proc/\(pid)/stat"), let status = text("/proc/\(pid)/status"),
            let cpu = cpuSeconds(stat: stat)
        else { return nil }
        return ProcessSample(
            cpuSeconds: cpu, peakResidentBytes: (kilobytes("VmHWM:", in: status) ?? 0) * 1024,
            residentBytes: (kilobytes("VmRSS:", in: status) ?? 0) * 1024)
    }

    /// The sum over `pids` (those still running).
    public static func read(pids: [Int32]) -> ProcessSample {
        pids.compactMap { read(pid: $0) }.reduce(ProcessSample(cpuSeconds: 0, peakResidentBytes: 0)) {
            ProcessSample(
                cpuSeconds: $0.cpuSeconds + $1.cpuSeconds,
                peakResidentBytes: $0.peakResidentBytes + $1.peakResidentBytes,
                residentBytes: $0.residentBytes + $1.residentBytes)
        }
    }

    /// utime + stime (fields 14 and 15 of `/proc/PID/stat`, counted after the parenthesised command name, which
    /// may hold spaces) in seconds.
    static func cpuSeconds(stat: String) -> Double? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state): utime is field 14, stime field 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The parent process ID (field 4 of `/proc/PID/stat`).
    static func parentID(stat: String) -> Int32? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// `KEY: N kB` of a status file, in kB.
    static func kilobytes(_ key: String, in status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return nil }
        return Int(line.dropFirst(key.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
    }

    /// The processes whose parent is `pid` (nginx's workers).
    public static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let child = Int32(entry), let stat = text("/proc/\(child)/stat"), parentID(stat: stat) == pid
            else { return nil }
            return child
        }
    }

    static func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}
