import Foundation
import PinholeTestSupport
import Testing

@testable import PinholeVips

/// The public glibc `malloc` tuning (`MallocTuning`): a pinned mmap threshold, so a freed decode buffer does not
/// send the next ones into the arenas; a user's own numeric setting wins.
@Suite(.serialized, .timeLimit(scaledMinutes: 1))
struct MallocTuningTests {
    @Test(.enabled(if: !LoadFactor.isSanitizedRun, "a sanitizer's allocator ignores mallopt"))
    func theFootprintTuningPinsTheMmapThresholdLimitsTheArenasAndPadsNothing() {
        // Given no MALLOC_* variable of the user's, When the footprint tuning is applied
        let settings = MallocTuning.apply(
            for: .footprint, environment: [:], cores: ProcessInfo.processInfo.activeProcessorCount)

        // Then glibc took the 256 KiB threshold and an arena per core, and no top pad was set. (What the threshold
        // does is measured in a fresh process, BENCHMARKS.md "glibc malloc tuning": in this test process other
        // tests' freed memory answers large blocks from the arenas whatever the threshold, so a block's placement
        // proves nothing; the arena limit is seen in a fresh process by PinholeCLITests' MallocTuningTests.)
        #expect(
            settings
                == .init(
                    mmapThresholdBytes: 256 * 1024, topPadBytes: nil,
                    arenaLimit: ProcessInfo.processInfo.activeProcessorCount))
    }

    @Test(.enabled(if: !LoadFactor.isSanitizedRun, "a sanitizer's allocator ignores mallopt and mallinfo2"))
    func aUsersOwnSettingsAreLeftAlone() {
        // Given a user who set the variables to numbers, When either tuning is applied
        let throughput = MallocTuning.apply(
            for: .throughput, environment: ["MALLOC_MMAP_THRESHOLD_": "262144", "MALLOC_TOP_PAD_": "0x20000"])
        let footprint = MallocTuning.apply(
            for: .footprint, environment: ["MALLOC_MMAP_THRESHOLD_": "262144", "MALLOC_ARENA_MAX": "16"])

        // Then none is set over them
        #expect(throughput == .init(mmapThresholdBytes: nil, topPadBytes: nil))
        #expect(footprint == .init(mmapThresholdBytes: nil, topPadBytes: nil, arenaLimit: nil))
    }

    @Test(.enabled(if: !LoadFactor.isSanitizedRun, "a sanitizer's allocator ignores malloc_trim and mallinfo2"))
    func releasingFreeMemoryAfterABurstGivesSomeBack() async {
        // Given a burst of small blocks (below the threshold, so in an arena) freed again
        let released = await onOwnThread { () -> Bool in
            let blocks = (0..<4096).compactMap { _ in malloc(8 * 1024) }
            for block in blocks { memset(block, 1, 8 * 1024) }
            for block in blocks { free(block) }
            let free = MallocTuning.figures.freeBytes
            // When the free memory is released
            return free >= 4096 * 8 * 1024 && MallocTuning.releaseFreeMemory()
        }

        // Then there was at least the burst's worth free in the arenas, and some of it went back
        #expect(released)
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
