import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// glibc `malloc` tuning for a batch of large, short-lived decode buffers.
///
/// glibc serves blocks over `M_MMAP_THRESHOLD` (128 KiB at start) with `mmap` and returns them to the
/// system on `free`, but each such `free` raises the threshold (up to 32 MiB). After the first big photo,
/// later decode buffers of several MB land in per-thread arenas and stay there, fragmented: the peak RSS of a
/// run over the corpus grew from about 140 MB to 340–376 MB (2 jobs). Pinning the threshold at 256 KiB keeps
/// large buffers on `mmap`: the same run peaked at 216–221 MB, with no loss of throughput (measured in
/// BENCHMARKS.md's session; `MALLOC_ARENA_MAX=2` on top gained little).
///
/// With that alone, the arenas keep giving the free memory at their top back to the system and faulting it in
/// again for the next thumbnail: a run over the corpus took about 160,000 page faults, 0.45–0.55 s of system time
/// in 2.5–3 s of CPU. `M_TOP_PAD` of 64 MiB keeps that much free memory at an arena's top: 33,000–60,000 faults,
/// 0.20–0.24 s of system time (raising `M_TRIM_THRESHOLD` to 64 MiB instead left 134,000). Over 6 interleaved runs
/// (with `MALLOC_TOP_PAD_=131072`, glibc's default, as the reference): 1 job 3.05 → 2.74 s, 2 jobs 1.66 → 1.48 s,
/// CPU 9–11 % less; peak RSS 149 → 154 MB at 1 job, 168 → 198 MB at 2 (vipsthumbnail in batch: 243–266 MB).
/// Only `pinhole thumbnail` pads: a process that lives on after a burst of decodes keeps what it padded (the scroll
/// benchmark, which encodes its images before it starts, began at 221–238 MB instead of 133 MB).
///
/// `mallopt` is declared in `<malloc.h>`, which the Swift Glibc module does not import, so it is looked up
/// with `dlsym`. A user who sets `MALLOC_MMAP_THRESHOLD_` or `MALLOC_TOP_PAD_` to a number keeps their own value.
enum MallocTuning {
    /// glibc's `M_MMAP_THRESHOLD` parameter number (`<malloc.h>`: `#define M_MMAP_THRESHOLD -3`).
    private static let mmapThresholdParameter: Int32 = -3
    /// glibc's `M_TOP_PAD` parameter number (`<malloc.h>`: `#define M_TOP_PAD -2`).
    private static let topPadParameter: Int32 = -2
    /// Blocks of 256 KiB and more are mapped and unmapped directly.
    static let mmapThresholdBytes: Int32 = 256 * 1024
    /// Free memory an arena keeps at its top instead of returning it: 64 MiB.
    static let topPadBytes: Int32 = 64 * 1024 * 1024

    /// Whether an environment variable's `value` is a number glibc's tunables take (decimal, or hexadecimal after
    /// `0x`): a user's own setting, which the policy leaves alone. Anything else (`abc`, empty, `64M`) glibc
    /// ignores, and so does the policy.
    static func setsNumber(_ value: String?) -> Bool {
        guard let value else { return false }
        let lowercased = value.lowercased()
        if lowercased.hasPrefix("0x") { return lowercased.count > 2 && UInt64(lowercased.dropFirst(2), radix: 16) != nil }
        return UInt64(value) != nil
    }

    /// Whether `command` (the first argument) is a batch of thumbnails, which gets the top pad.
    static func padsArenaTop(command: String?) -> Bool { command == "thumbnail" }

    /// Applies the policy to this process, for `command` (the first argument); call once at start, before heavy
    /// allocation. Leaves a parameter alone when its environment variable is set to a number (``setsNumber(_:)``);
    /// does nothing when `mallopt` is not found.
    static func apply(command: String?) {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let environment = ProcessInfo.processInfo.environment
        if !setsNumber(environment["MALLOC_MMAP_THRESHOLD_"]) { _ = mallopt(mmapThresholdParameter, mmapThresholdBytes) }
        if !setsNumber(environment["MALLOC_TOP_PAD_"]), padsArenaTop(command: command) {
            _ = mallopt(topPadParameter, topPadBytes)
        }
        #endif
    }
}
