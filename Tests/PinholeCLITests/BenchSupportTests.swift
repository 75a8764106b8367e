import PinholeBench
import PinholeShared
import PinholeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The pieces of the benchmark harness the CLI also uses: process figures and sample statistics.
@Suite(.timeLimit(scaledMinutes: 1))
struct BenchSupportTests {
    @Test func readsThreadsAndResidentSizesOfThisProcess() {
        // Given this test process (the Swift runtime alone has several threads and megabytes resident)
        let threads = ProcessStats.threadCount()
        let resident = ProcessStats.residentBytes()
        let peak = ProcessStats.peakResidentBytes()

        // Then the figures are plausible and consistent. Within 20 MB: the two are read one after the other
        // while other tests allocate and free, and the kernel records the high-water mark only at unmap time, so
        // memory returned in between (madvise, not munmap) lowers VmRSS before VmHWM has seen it
        #expect(threads >= 1)
        #expect(resident > 1_000_000)
        #expect(peak >= resident - 20_000_000)
    }

    @Test func peakResidentSizeIsAHighWaterMarkThatStaysAfterMemoryIsReturned() throws {
        // Given 200 MB mapped and written by this test (an mmap of its own, so unmapping returns it to the
        // kernel at once; tests running alongside may allocate and free, so only figures that hold whatever
        // they do are compared)
        let size = 200_000_000
        let mapping = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(mapping != MAP_FAILED)
        let bytes = mapping.assumingMemoryBound(to: UInt8.self)
        for index in stride(from: 0, to: size, by: 4096) { bytes[index] = 1 }

        // When the figures are read while the memory is held and again after it is unmapped
        let residentWhileHeld = ProcessStats.residentBytes()
        let peakWhileHeld = ProcessStats.peakResidentBytes()
        munmap(mapping, size)
        let peakAfter = ProcessStats.peakResidentBytes()

        // Then the held memory counts as resident, the peak covers it, and the peak stays when the 200 MB
        // leave, where the current resident size falls by about that much. Within 20 MB: the kernel's RSS
        // counters are per-CPU and approximate (`get_mm_rss`), and the high-water mark is only recorded at
        // unmap time, so it can read a few hundred KB below the figure `VmHWM` showed while the memory was held,
        // and below the `VmRSS` read just before it when another test returned memory in between (CI saw one page).
        let slack = 20_000_000
        #expect(residentWhileHeld >= size - slack)
        #expect(peakWhileHeld >= residentWhileHeld - slack)
        #expect(peakAfter >= peakWhileHeld - slack)
    }

    @Test(arguments: [
        ([3.0, 1, 2], 2.0, 1.0),
        ([4.0, 1, 3, 2], 2.5, 1.2),
        ([5.0], 5.0, 0.0),
    ])
    func summarisesSamplesByMedianAndSpread(values: [Double], median: Double, spread: Double) {
        let samples = Samples(values)
        #expect(samples.median == median)
        #expect(abs(samples.relativeSpread - spread) < 1e-9)
        #expect(samples.minimum == values.min() && samples.maximum == values.max())
    }

    @Test func emptySamplesSummariseToZero() {
        #expect(Samples().median == 0 && Samples().relativeSpread == 0)
    }
}
