import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where one tick of the scroll reproduction's frame loop spent its time on the main actor: the main thread's CPU
/// milliseconds per phase and for the whole tick (`CLOCK_THREAD_CPUTIME_ID`, which, unlike wall time, does not
/// grow while other processes hold the core).
struct FramePhases: Sendable {
    /// Sampling threads and RSS for the figures (the measurement's own cost).
    var sampling = 0.0
    /// Rebinding every visible row to its refreshed URL.
    var refresh = 0.0
    /// Rows that left the screen.
    var disappear = 0.0
    /// Rows that came on screen.
    var appear = 0.0
    /// Drawing the visible cells.
    var draw = 0.0
    /// The main thread's CPU time over the whole tick.
    var cpu = 0.0
    /// Times the main thread gave up its core during the tick's work because it had to wait (a lock, a futex,
    /// I/O): `ru_nvcsw` of `getrusage(RUSAGE_THREAD)`.
    var waits = 0
    /// Times the kernel took the core from the main thread during the tick's work (`ru_nivcsw`): another
    /// runnable thread was given its turn.
    var preemptions = 0
    /// The thread's CPU time when the tick started, in seconds.
    private(set) var startCPU: Double
    /// The thread that ran the tick (`pthread_self`; on Linux, `dispatch_main` hands the main queue to a worker
    /// thread, which may change between ticks).
    let threadID: UInt
    private var startSwitches: (waits: Int, preemptions: Int)

    init(startCPU: Double, threadID: UInt = UInt(pthread_self())) {
        self.startCPU = startCPU
        self.threadID = threadID
        startSwitches = Self.threadContextSwitches()
    }

    /// The main-actor thread's CPU time from each tick's start to the next one's, in milliseconds, less the
    /// first tick's sampling (the measurement's own): all the main actor did in one frame, the tick and every job
    /// after it (a result applied, a load started). Pairs of ticks run by different threads are left out.
    static func cpuBetweenTicks(_ phases: [FramePhases]) -> [Double] {
        zip(phases, phases.dropFirst()).compactMap { tick, next in
            guard tick.threadID == next.threadID else { return nil }
            return (next.startCPU - tick.startCPU) * 1000 - tick.sampling
        }
    }

    /// Runs `body` and records the thread's CPU time it took, in milliseconds, under `phase`.
    mutating func measure(_ phase: WritableKeyPath<FramePhases, Double>, _ body: () -> Void) {
        let start = Self.threadCPUSeconds()
        body()
        self[keyPath: phase] += (Self.threadCPUSeconds() - start) * 1000
    }

    /// Records the tick's CPU time and context switches (call at the end of its work).
    mutating func finish() {
        cpu = (Self.threadCPUSeconds() - startCPU) * 1000
        let switches = Self.threadContextSwitches()
        waits = switches.waits - startSwitches.waits
        preemptions = switches.preemptions - startSwitches.preemptions
    }

    /// This thread's voluntary and involuntary context switches so far (`getrusage(RUSAGE_THREAD)`, Linux).
    static func threadContextSwitches() -> (waits: Int, preemptions: Int) {
        var usage = rusage()
        // RUSAGE_THREAD (1 on Linux) is defined only under _GNU_SOURCE, so Glibc's Swift overlay lacks it.
        let rusageThread: Int32 = 1
        guard getrusage(rusageThread, &usage) == 0 else { return (0, 0) }
        return (Int(usage.ru_nvcsw), Int(usage.ru_nivcsw))
    }

    /// This thread's CPU time in seconds.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// One line per phase: p50, p99 and maximum over `phases`, in milliseconds.
    static func profile(_ phases: [FramePhases]) -> String {
        let rows: [(String, KeyPath<FramePhases, Double>)] = [
            ("sampling", \.sampling), ("refresh", \.refresh), ("disappear", \.disappear), ("appear", \.appear),
            ("draw", \.draw), ("main-thread CPU", \.cpu),
        ]
        return rows.map { name, keyPath in
            let values = phases.map { $0[keyPath: keyPath] }
            return String(
                format: "%@ p50 %.3f / p99 %.3f / max %.3f ms", name, FrameStatistics.percentile(50, of: values),
                FrameStatistics.percentile(99, of: values), values.max() ?? 0)
        }.joined(separator: "; ")
    }

    /// Why the slowest frames were slow: for the 1 % of ticks with the longest main-actor work in wall time
    /// (`wallMilliseconds[i]` belongs to `phases[i]`), their wall and CPU time and how many of them waited
    /// (a voluntary switch: a lock or I/O) or were preempted (an involuntary one). Wall minus CPU is time the main
    /// thread was runnable or waiting but not running.
    static func slowFrames(_ phases: [FramePhases], wallMilliseconds: [Double]) -> String {
        let count = min(phases.count, wallMilliseconds.count)
        guard count > 0 else { return "slowest 1 %: no frames" }
        let slowest = (0..<count).sorted { wallMilliseconds[$0] > wallMilliseconds[$1] }.prefix(max(1, count / 100))
        let wall = slowest.map { wallMilliseconds[$0] }
        let cpu = slowest.map { phases[$0].cpu }
        let waited = slowest.filter { phases[$0].waits > 0 }.count
        let preempted = slowest.filter { phases[$0].preemptions > 0 }.count
        let allWaited = (0..<count).filter { phases[$0].waits > 0 }.count
        let allPreempted = (0..<count).filter { phases[$0].preemptions > 0 }.count
        return String(
            format: "slowest 1 %% (%d frames): wall p50 %.3f ms, CPU p50 %.3f ms, waited in %d, preempted in %d; "
                + "all %d frames: waited in %d, preempted in %d",
            slowest.count, FrameStatistics.percentile(50, of: wall), FrameStatistics.percentile(50, of: cpu), waited,
            preempted, count, allWaited, allPreempted)
    }
}
