import Glibc

/// Figures about the running process, read from `/proc/self` and `getrusage` (Linux).
///
/// Each call reads the current value; nothing is cached. Safe from any thread and any isolation: procfs is
/// served by the kernel from memory, so a read does not wait on a disk (a few microseconds), and the reads use
/// plain `open`/`read`, cheap enough for every frame of a 60 Hz loop.
package enum ProcessStats {
    /// The number of threads in the process now (the `Threads:` line of `/proc/self/status`); 0 if unknown.
    package static func threadCount() -> Int {
        statusValue("Threads:") ?? 0
    }

    /// The resident set size now, in bytes (`VmRSS`); 0 if unknown.
    package static func residentBytes() -> Int {
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
    package static func peakResidentBytes() -> Int {
        if let highWaterMark = statusValue("VmHWM:") { return highWaterMark * 1024 }
        var usage = rusage()
        return getrusage(RUSAGE_SELF.rawValue, &usage) == 0 ? Int(usage.ru_maxrss) * 1024 : 0
    }

    /// Minor page faults of this program so far (`getrusage(RUSAGE_SELF).ru_minflt`): pages of memory the kernel
    /// had to map in, each a 4 KiB page zeroed or taken from the page cache; 0 when it cannot be read.
    package static func minorPageFaults() -> Int {
        var usage = rusage()
        return getrusage(RUSAGE_SELF.rawValue, &usage) == 0 ? Int(usage.ru_minflt) : 0
    }

    /// CPU time (user + system) this process has used so far, all threads, in seconds (`getrusage(RUSAGE_SELF)`).
    package static func cpuSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// CPU time (user + system) used so far by the children this process has waited for, in seconds
    /// (`getrusage(RUSAGE_CHILDREN)`). The difference across a run of child processes is their CPU cost,
    /// which, unlike wall time, barely depends on what else the machine is doing.
    package static func childCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_CHILDREN.rawValue, &usage) == 0 else { return 0 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// `/proc/self/status` as text; "" when it cannot be read.
    package static func status() -> String {
        String(decoding: readFile("/proc/self/status") ?? [], as: UTF8.self)
    }

    /// The number after `key` on its line of `status` (kilobytes for `Vm*` lines), or `nil` without that line.
    package static func statusValue(_ key: String, in status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix(key) {
            let fields = line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            return fields.first.flatMap { Int($0) }
        }
        return nil
    }

    /// The number on the line of `/proc/self/status` that starts with `key` (kilobytes for `Vm*` lines).
    static func statusValue(_ key: String) -> Int? {
        statusValue(key, in: status())
    }

    /// The whole of a (small, procfs) file, or `nil` when it cannot be opened.
    static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }
}
