import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Figures about the running process, read from `/proc/self/status` and `getrusage` (Linux).
///
/// Each call reads the current value; nothing is cached. Safe from any isolation: the reads are tiny and
/// served by the kernel from memory (procfs), so they do not wait on a disk.
public enum ProcessStats {
    /// The number of threads in the process now (the `Threads:` line of `/proc/self/status`); 0 if unknown.
    public static func threadCount() -> Int {
        statusValue("Threads:") ?? 0
    }

    /// The resident set size now, in bytes (`VmRSS`); 0 if unknown.
    public static func residentBytes() -> Int {
        (statusValue("VmRSS:") ?? 0) * 1024
    }

    /// The peak resident set size of this program so far, in bytes: `VmHWM` (`/proc/self/status`), or
    /// `getrusage(RUSAGE_SELF).ru_maxrss` when `/proc` cannot be read.
    ///
    /// Not the larger of the two: at `execve` Linux folds the old address space's high-water mark into
    /// `ru_maxrss` (`setmax_mm_hiwater_rss(&sig->maxrss, current->mm)` in `fs/exec.c`), so a child's
    /// `ru_maxrss` starts at its parent's peak: `pinhole thumbnail --json` started by a process holding
    /// 400 MB reported 434 MB, and 60 MB when started from a shell. For the running program both figures
    /// come from the same counter (`get_mm_hiwater_rss`), so `VmHWM` misses nothing `ru_maxrss` would see.
    public static func peakResidentBytes() -> Int {
        if let highWaterMark = statusValue("VmHWM:") { return highWaterMark * 1024 }
        var usage = rusage()
        return getrusage(RUSAGE_SELF.rawValue, &usage) == 0 ? Int(usage.ru_maxrss) * 1024 : 0
    }

    /// Minor page faults of this program so far (`getrusage(RUSAGE_SELF).ru_minflt`): pages of memory the kernel
    /// had to map in, each a 4 KiB page zeroed or taken from the page cache; 0 when it cannot be read.
    public static func minorPageFaults() -> Int {
        var usage = rusage()
        return getrusage(RUSAGE_SELF.rawValue, &usage) == 0 ? Int(usage.ru_minflt) : 0
    }

    /// CPU time (user + system) used so far by the children this process has waited for, in seconds
    /// (`getrusage(RUSAGE_CHILDREN)`). The difference across a run of child processes is their CPU cost,
    /// which, unlike wall time, barely depends on what else the machine is doing.
    public static func childCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_CHILDREN.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The number on the line of `/proc/self/status` that starts with `key` (kilobytes for `Vm*` lines).
    static func statusValue(_ key: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key) {
            let fields = line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            return fields.first.flatMap { Int($0) }
        }
        return nil
    }
}

extension ProcessStats {
    /// CPU time (user + system) this process has used so far, all threads, in seconds (`getrusage(RUSAGE_SELF)`).
    public static func cpuSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// CPU time (user + system) used so far by the live threads whose name starts with `prefix`, in seconds
    /// (`/proc/self/task/*/stat`, clock-tick resolution: 10 ms). Threads that have exited are not counted.
    public static func cpuSeconds(ofThreadsNamed prefix: String) -> Double {
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var ticks = 0
        for task in tasks {
            guard let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                stat[stat.index(after: open)..<close].hasPrefix(prefix)
            else { continue }
            // After "pid (comm) ": field 3 (state) is index 0, so utime (14) and stime (15) are 11 and 12.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { continue }
            ticks += user + system
        }
        return Double(ticks) / max(ticksPerSecond, 1)
    }
}
