import Foundation
import Testing

@testable import PinholeBench

#if canImport(Glibc)
    import Glibc
#endif

/// The scroll reproduction's per-frame account of the main thread: CPU time, and whether a slow frame waited
/// (voluntary context switch) or was preempted (involuntary one).
struct FramePhasesTests {
    @Test func aFrameThatSleepsCountsAWaitAndLittleCPU() {
        // Given a frame started now
        var phases = FramePhases(startCPU: FramePhases.threadCPUSeconds())

        // When its work sleeps for 5 ms (the thread gives up its core: a voluntary switch)
        usleep(5_000)
        phases.finish()

        // Then the wait is counted, and the sleep is not CPU time
        #expect(phases.waits >= 1)
        #expect(phases.cpu < 5)
    }

    @Test func cpuBetweenTicksCountsEveryJobOfTheFrameButTheSamplerAndSkipsAChangeOfThread() {
        // Given four ticks: three on thread 7 starting at 1.000, 1.002 and 1.005 s of its CPU time, each sampling
        // for 0.5 ms, then one on thread 8
        var frames = [1.000, 1.002, 1.005].map { FramePhases(startCPU: $0, threadID: 7) }
        for index in frames.indices { frames[index].sampling = 0.5 }
        frames.append(FramePhases(startCPU: 0.3, threadID: 8))

        // When the CPU time between ticks is taken
        let between = FramePhases.cpuBetweenTicks(frames)

        // Then it is 2 − 0.5 and 3 − 0.5 ms, and the pair across threads is left out
        #expect(between.count == 2)
        #expect(abs(between[0] - 1.5) < 1e-9 && abs(between[1] - 2.5) < 1e-9, "\(between)")
    }

    @Test func slowFramesSummariseTheSlowestHundredthByWhatHeldThemUp() {
        // Given 200 frames: 198 fast ones, one slow frame that waited and one slow frame that was preempted
        var frames = (0..<200).map { _ in FramePhases(startCPU: 0) }
        for index in frames.indices { frames[index].cpu = 0.1 }
        var wall = [Double](repeating: 0.2, count: 200)
        wall[7] = 3.0
        frames[7].waits = 1
        wall[150] = 2.0
        frames[150].preemptions = 2
        frames[20].waits = 1  // a fast frame that waited too

        // When they are summarised
        let text = FramePhases.slowFrames(frames, wallMilliseconds: wall)

        // Then the slowest 1 % are the two slow frames, one waited and one was preempted
        #expect(text.hasPrefix("slowest 1 % (2 frames): wall p50 "))
        #expect(text.contains("waited in 1, preempted in 1; all 200 frames: waited in 2, preempted in 1"), "\(text)")
    }
}
