import Glibc

extension ProcessStats {
    /// The ids of the process's threads now (the entries of `/proc/self/task`), or `nil` when it cannot be read.
    package static func threadIDs() -> [Int32]? {
        guard let directory = opendir("/proc/self/task") else { return nil }
        defer { closedir(directory) }
        var threads: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let thread = Int32(name) { threads.append(thread) }
        }
        return threads
    }

    /// The name of one thread of this process (`/proc/self/task/TID/comm`, at most 15 bytes), or `nil` when
    /// the thread has ended.
    package static func threadName(_ thread: Int32) -> String? {
        guard let bytes = readFile("/proc/self/task/\(thread)/comm") else { return nil }
        return String(decoding: bytes.prefix { $0 != 10 && $0 != 0 }, as: UTF8.self)
    }

    /// The names of the process's threads now (`/proc/self/task/*/comm`, at most 15 bytes each).
    package static func threadNames() -> [String] {
        (threadIDs() ?? []).compactMap(threadName)
    }

    /// Threads now, not counting those whose name starts with one of `excludedPrefixes` (for example the
    /// in-process test server's `pinhole-srv` threads, which a real client would not have); ``threadCount()``
    /// when `/proc/self/task` cannot be read.
    package static func threadCount(excludingPrefixes excludedPrefixes: [String]) -> Int {
        guard let threads = threadIDs() else { return threadCount() }
        return threads.count { thread in
            guard let name = threadName(thread) else { return false }
            return !excludedPrefixes.contains { name.hasPrefix($0) }
        }
    }

    /// CPU time (user + system) used so far by the live threads whose name starts with `prefix`, in seconds
    /// (`/proc/self/task/*/stat`, clock-tick resolution: 10 ms). Threads that have exited are not counted.
    package static func cpuSeconds(ofThreadsNamed prefix: String) -> Double {
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        var ticks = 0
        for thread in threadIDs() ?? [] {
            guard let bytes = readFile("/proc/self/task/\(thread)/stat") else { continue }
            let stat = String(decoding: bytes, as: UTF8.self)
            guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
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
