import Foundation
import Pinhole
import PinholeVips

#if canImport(Glibc)
    import Glibc
    import PinholeShared
#endif

/// The floor of a JPEG thumbnail on this machine (``TurboJPEGFloorDecoder``, in PinholeVips), run on threads of
/// its own and measured in CPU time.
enum TurboJPEGFloor {
    /// Threads for the floor's decodes (idle unless the floor runs).
    private static let pool = WorkerThreadPool(threadCount: 16, name: "pinhole-floor")

    /// Decodes every file at 1/8 scale, `threads` at a time (thread k takes files k, k + threads …).
    ///
    /// - Returns: this process's CPU time over the call (`getrusage(RUSAGE_SELF)`: user + system) and its peak
    ///   RSS so far.
    /// - Throws: ``PinholeError/Code/decodingFailed`` when a file cannot be read or decoded.
    static func decode(_ files: [String], threads: Int) async throws -> ThumbnailComparison.Usage {
        let before = cpuSeconds()
        let count = min(max(1, threads), 16)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for k in 0..<count {
                let shard = stride(from: k, to: files.count, by: count).map { files[$0] }
                group.addTask { try await pool.run { try TurboJPEGFloorDecoder.decodeAtOneEighth(shard) } }
            }
            while let decoded = try await group.next() { blackHole(decoded) }
        }
        return .init(cpuSeconds: cpuSeconds() - before, peakRSSBytes: ProcessStats.peakResidentBytes())
    }

    /// User + system CPU time of this process so far, in seconds.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
