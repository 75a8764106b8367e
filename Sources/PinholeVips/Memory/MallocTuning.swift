import CPinholeVips
import Foundation

/// glibc `malloc` settings for a process that decodes many large images, and the figures to check them by.
///
/// Decode buffers are megabytes each and short-lived. With glibc's defaults, each large `free` raises the threshold
/// above which blocks are mapped on their own (up to 32 MiB), so later buffers land in per-thread arenas that
/// fragment and are seldom given back: peak and resident memory grow with the number of decoding threads. Call
/// ``apply(for:environment:)`` once, at start, before heavy allocation:
///
/// ```swift
/// MallocTuning.apply(for: .footprint)   // an app or a server; `.throughput` for a batch that exits
/// ```
///
/// The settings are process-wide, so Pinhole never applies them by itself. `pinhole gallery` and `pinhole serve`
/// (which also calls ``releaseFreeMemory()`` after a second without answers) use ``Workload/footprint``;
/// `pinhole thumbnail` uses ``Workload/throughput``. A `MALLOC_MMAP_THRESHOLD_`, `MALLOC_TOP_PAD_` or
/// `MALLOC_ARENA_MAX` environment variable set to a number keeps the user's value. Does nothing without glibc or
/// under a sanitizer's allocator. Figures per format: README, "Measured"; BENCHMARKS.md, "glibc malloc tuning".
public enum MallocTuning {
    /// What the process trades: memory that follows use, or CPU saved by keeping freed memory for the next image.
    public enum Workload: Sendable {
        /// Memory follows use (an app, a server, any process that lives on after bursts of decodes):
        /// blocks of ``mmapThresholdBytes`` and more are mapped on their own, nothing is padded, and there are
        /// at most as many arenas as cores (glibc's default is 8 per core): each arena keeps the memory its
        /// threads freed until a trim, so a busy process with many threads holds freed memory many times over.
        case footprint
        /// Fewer page faults (a batch that exits): as ``footprint``, and each arena keeps ``topPadBytes`` free at
        /// its top instead of giving pages back and faulting them in again for the next image. A long-lived
        /// process keeps more resident while busy, one pad per arena in use.
        case throughput
    }

    /// What ``apply(for:environment:)`` set: a value in bytes, or `nil` where it left glibc's value (the user's own,
    /// or not part of the workload, or no glibc).
    public struct Settings: Sendable, Equatable {
        /// `M_MMAP_THRESHOLD` as set, in bytes.
        public var mmapThresholdBytes: Int?
        /// `M_TOP_PAD` as set, in bytes.
        public var topPadBytes: Int?
        /// `M_ARENA_MAX` as set: the most arenas, the main one included.
        public var arenaLimit: Int? = nil
    }

    /// The allocator's figures (`mallinfo2`), in bytes; all 0 without glibc.
    public struct Figures: Sendable, Equatable {
        /// Blocks mapped on their own (each given back to the system when freed).
        public var mappedBytes: Int
        /// What the arenas took from the system.
        public var arenaBytes: Int
        /// Free memory inside the arenas, resident or not: ``releaseFreeMemory()`` gives its pages back to the
        /// system, and glibc still counts them here.
        public var freeBytes: Int
        /// Arenas in use, the main one included (`malloc_info`).
        public var arenaCount: Int
    }

    /// The mmap threshold both workloads set: 256 KiB.
    public static let mmapThresholdBytes = 256 * 1024
    /// The top pad of ``Workload/throughput``: 64 MiB.
    public static let topPadBytes = 64 * 1024 * 1024

    /// Applies the settings of `workload` to this process. Call once, at start. Thread-safe, but the settings are
    /// the whole process's.
    ///
    /// - Parameters:
    ///   - environment: where a user's own `MALLOC_MMAP_THRESHOLD_` / `MALLOC_TOP_PAD_` / `MALLOC_ARENA_MAX` is
    ///     looked up; `nil` (the default) for the process's environment.
    ///   - cores: the arena limit of ``Workload/footprint``; `nil` (the default) for the active processor count.
    /// - Returns: what was set.
    @discardableResult
    public static func apply(
        for workload: Workload, environment: [String: String]? = nil,
        cores: Int? = nil
    ) -> Settings {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let cores = max(1, cores ?? ProcessInfo.processInfo.activeProcessorCount)
        var settings = Settings()
        if !setsNumber(environment["MALLOC_MMAP_THRESHOLD_"]),
            CPinholeVips_set_mmap_threshold(Int32(mmapThresholdBytes)) == 1
        {
            settings.mmapThresholdBytes = mmapThresholdBytes
        }
        if workload == .throughput, !setsNumber(environment["MALLOC_TOP_PAD_"]),
            CPinholeVips_set_top_pad(Int32(topPadBytes)) == 1
        {
            settings.topPadBytes = topPadBytes
        }
        if workload == .footprint, !setsNumber(environment["MALLOC_ARENA_MAX"]),
            CPinholeVips_set_arena_max(Int32(clamping: cores)) == 1
        {
            settings.arenaLimit = cores
        }
        return settings
    }

    /// Gives the free memory of every arena back to the system (`malloc_trim(0)`), for a long-lived process after a
    /// burst of decodes. Blocking (it walks every arena): call it off the main actor and off Swift's cooperative
    /// pool, when idle. `pinhole serve` calls it once no answer has been made for a second.
    ///
    /// - Returns: whether any memory was given back.
    @discardableResult
    public static func releaseFreeMemory() -> Bool { CPinholeVips_trim_memory() == 1 }

    /// The allocator's figures now. Walks every arena under its lock (`mallinfo2`, `malloc_info`): for a metrics
    /// scrape or a report, not for each request.
    public static var figures: Figures {
        let figures = CPinholeVips_malloc_figures()
        return Figures(
            mappedBytes: Int(figures.mapped_bytes), arenaBytes: Int(figures.arena_bytes),
            freeBytes: Int(figures.free_bytes), arenaCount: Int(figures.arena_count))
    }

    /// Whether an environment variable's `value` is a number glibc's tunables take (decimal, or hexadecimal after
    /// `0x`): a user's own setting, which the tuning leaves alone. Anything else (`abc`, empty, `64M`) glibc
    /// ignores, and so does the tuning.
    static func setsNumber(_ value: String?) -> Bool {
        guard let value else { return false }
        let lowercased = value.lowercased()
        if lowercased.hasPrefix("0x") {
            return lowercased.count > 2 && UInt64(lowercased.dropFirst(2), radix: 16) != nil
        }
        return UInt64(value) != nil
    }
}
