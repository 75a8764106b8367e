import Foundation
import PinholeTestSupport
import Testing

@testable import PinholeVips

/// The public glibc `malloc` tuning (`MallocTuning`): a pinned mmap threshold, so a freed decode buffer does not
/// send the next ones into the arenas; a user's own numeric setting wins.
@Suite(.serialized, .timeLimit(scaledMinutes: 1))
struct MallocTuningTests {
    /// Bytes mapped on their own while a block of `size` bytes, touched, is held.
    static func mappedWhileHolding(_ size: Int) -> Int {
        let before = MallocTuning.figures.mappedBytes
        guard let block = malloc(size) else { return 0 }
        memset(block, 1, size)
        let during = MallocTuning.figures.mappedBytes
        free(block)
        return during - before
    }

    @Test(.enabled(if: !LoadFactor.isSanitizedRun, "a sanitizer's allocator ignores mallopt and mallinfo2"))
    func aFreedDecodeBufferDoesNotRaiseTheThresholdOnceTuned() {
        // Given the footprint tuning, applied with no MALLOC_* variable of the user's
        let settings = MallocTuning.apply(for: .footprint, environment: [:])
        #expect(settings == .init(mmapThresholdBytes: 256 * 1024, topPadBytes: nil))

        // When a 4 MiB buffer is held and freed, then a second one is held (glibc's default would have raised the
        // threshold to the first block's size and put the second in an arena); the best of 5 rounds, as other
        // tests' threads map and unmap blocks meanwhile
        var first = 0
        var second = 0
        for _ in 0..<5 {
            first = max(first, Self.mappedWhileHolding(4 << 20))
            second = max(second, Self.mappedWhileHolding(4 << 20))
        }

        // Then both were mapped on their own, so both went back to the system when freed
        #expect(first >= 4 << 20 && second >= 4 << 20, "mapped while held: \(first), then \(second) bytes")
    }

    @Test(.enabled(if: !LoadFactor.isSanitizedRun, "a sanitizer's allocator ignores mallopt and mallinfo2"))
    func aUsersOwnSettingsAreLeftAlone() {
        // Given a user who set both variables to numbers, When the throughput tuning is applied
        let settings = MallocTuning.apply(
            for: .throughput, environment: ["MALLOC_MMAP_THRESHOLD_": "262144", "MALLOC_TOP_PAD_": "0x20000"])

        // Then neither is set over them
        #expect(settings == .init(mmapThresholdBytes: nil, topPadBytes: nil))
    }

    @Test func releasingFreeMemoryAfterABurstLeavesTheArenasWithLessFreeMemory() async throws {
        // Given a burst of small blocks (below the threshold, so in an arena) freed again
        let blocks = (0..<4096).compactMap { _ in malloc(8 * 1024) }
        for block in blocks { memset(block, 1, 8 * 1024) }
        for block in blocks { free(block) }
        let before = MallocTuning.figures.freeBytes

        // When the free memory is released
        MallocTuning.releaseFreeMemory()

        // Then the arenas hold less of it (checked only where glibc reports figures)
        let after = MallocTuning.figures.freeBytes
        if !LoadFactor.isSanitizedRun { #expect(after < before, "free in arenas: \(before) then \(after) bytes") }
    }

    @Test(
        arguments: [
            ("131072", true), ("0", true), ("0x20000", true), (nil, false), ("", false), ("abc", false), ("64M", false),
            (" 1", false), ("-1", false), ("0x", false),
        ] as [(String?, Bool)])
    func aUsersOwnSettingCountsOnlyWhenGlibcTakesItAsANumber(value: String?, isSetting: Bool) {
        // Given a MALLOC_*_ variable's value, When the tuning decides whether the user set it, Then only a number
        // glibc parses keeps the tuning's value out (garbage would otherwise leave neither value in force)
        #expect(MallocTuning.setsNumber(value) == isSetting)
    }
}
