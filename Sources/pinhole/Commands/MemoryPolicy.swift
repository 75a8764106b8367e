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
/// `mallopt` is declared in `<malloc.h>`, which the Swift Glibc module does not import, so it is looked up
/// with `dlsym`. A user who sets `MALLOC_MMAP_THRESHOLD_` keeps their own value.
enum MemoryPolicy {
    /// glibc's `M_MMAP_THRESHOLD` parameter number (`<malloc.h>`: `#define M_MMAP_THRESHOLD -3`).
    private static let mmapThresholdParameter: Int32 = -3
    /// Blocks of 256 KiB and more are mapped and unmapped directly.
    static let mmapThresholdBytes: Int32 = 256 * 1024

    /// Applies the policy to this process; call once at start, before heavy allocation. Does nothing when
    /// `MALLOC_MMAP_THRESHOLD_` is set or `mallopt` is not found.
    static func apply() {
        #if canImport(Glibc)
        guard ProcessInfo.processInfo.environment["MALLOC_MMAP_THRESHOLD_"] == nil,
              let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
        else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(mmapThresholdParameter, mmapThresholdBytes)
        #endif
    }
}
