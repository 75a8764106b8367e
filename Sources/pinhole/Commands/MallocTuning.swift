import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// glibc `malloc` tuning for a batch of large, short-lived decode buffers, set with `mallopt` at start.
///
/// - `M_MMAP_THRESHOLD` pinned at 256 KiB (``mmapThresholdBytes``), every command: glibc raises the threshold
///   after each large `free` (up to 32 MiB), so multi-MB decode buffers would stay in fragmented per-thread arenas
///   and the peak RSS of a batch grow.
/// - `M_TOP_PAD` of 64 MiB (``topPadBytes``), `pinhole thumbnail` only: arenas keep that much free memory at their
///   top instead of giving it back and faulting it in again for the next thumbnail. A process that lives on after a
///   burst of decodes would keep what it padded, so the long-lived commands do not pad.
///
/// A `MALLOC_MMAP_THRESHOLD_` or `MALLOC_TOP_PAD_` set to a number keeps the user's value. `mallopt` is declared
/// in `<malloc.h>`, which the Swift Glibc module does not import, so it is looked up with `dlsym`. Figures:
/// BENCHMARKS.md, "Batch thumbnails: glibc malloc tuning".
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

    /// Whether `command` (the first argument) is a batch of thumbnails, which gets the top pad.
    static func padsArenaTop(command: String?) -> Bool { command == "thumbnail" }

    /// Applies the tuning to this process, for `command` (the first argument); call once at start, before heavy
    /// allocation. Leaves a parameter alone when its environment variable is set to a number (``setsNumber(_:)``);
    /// does nothing when `mallopt` is not found.
    static func apply(command: String?) {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            let environment = ProcessInfo.processInfo.environment
            if !setsNumber(environment["MALLOC_MMAP_THRESHOLD_"]) {
                _ = mallopt(mmapThresholdParameter, mmapThresholdBytes)
            }
            if !setsNumber(environment["MALLOC_TOP_PAD_"]), padsArenaTop(command: command) {
                _ = mallopt(topPadParameter, topPadBytes)
            }
        #endif
    }
}
