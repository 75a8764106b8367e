import PinholeBench
import PinholeTestSupport
import Testing

/// The pieces of the benchmark harness the CLI also uses: process figures and sample statistics.
@Suite(.timeLimit(scaledMinutes: 1))
struct BenchSupportTests {
    @Test func readsThreadsAndResidentSizesOfThisProcess() {
        // Given this test process (the Swift runtime alone has several threads and megabytes resident)
        let threads = ProcessStats.threadCount()
        let resident = ProcessStats.residentBytes()
        let peak = ProcessStats.peakResidentBytes()

        // Then the figures are plausible and consistent
        #expect(threads >= 1)
        #expect(resident > 1_000_000)
        #expect(peak >= resident)
    }

    @Test func peakResidentSizeRisesWhenMemoryIsTouched() {
        // Given the resident size now
        let before = ProcessStats.residentBytes()

        // When 200 MB more are written (far more than other tests running alongside ever free)
        let size = 200_000_000
        var buffer = [UInt8](repeating: 0, count: size)
        for index in stride(from: 0, to: size, by: 4096) { buffer[index] = 1 }
        blackHole(buffer)

        // Then the peak is at least about that much above it
        #expect(ProcessStats.peakResidentBytes() >= before + size * 3 / 4)
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
