import Dispatch
import Foundation
import Pinhole
import PinholeShared

/// Experiment (b): N = 10 / 64 / 100 / 1,000 concurrent 200 ms waits, as GCD blocks that *block* (a deliberate
/// `usleep`, the anti-pattern) and as tasks that *suspend* (`Task.sleep`): peak threads and total time.
///
/// GCD runs are capped (20 s by default): at the cap, blocks not yet started return at once, so the pool drains
/// quickly and later experiments are not affected; the row says how many waits finished before the cap.
struct WaitsExperiment {
    struct Row: Sendable, Codable, Hashable {
        /// `gcd + blocking sleep` or `tasks + Task.sleep`.
        var variant: String
        var waits: Int
        var baselineThreads: Int
        var peakThreads: Int
        var totalMs: Double
        /// Waits that slept their 200 ms before the cap (all of them unless ``timedOut``).
        var completed: Int
        var timedOut: Bool
    }

    var counts = [10, 64, 100, 1_000]
    var waitMilliseconds = 200
    var gcdCapSeconds = 20.0

    func run(log: @Sendable (String) -> Void) async -> [Row] {
        var rows: [Row] = []
        for count in counts {
            rows.append(await tasks(count))
            log("waits: tasks × \(count) done")
        }
        for count in counts {
            rows.append(await gcd(count))
            log("waits: gcd × \(count) done")
            try? await Task.sleep(for: .seconds(1))
        }
        return rows
    }

    func tasks(_ count: Int) async -> Row {
        let baseline = ProcessStats.threadCount()
        let sampler = ThreadPeakSampler()
        let start = ContinuousClock.now
        let wait = waitMilliseconds
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<count { group.addTask { try? await Task.sleep(for: .milliseconds(wait)) } }
        }
        let elapsed = ExperimentClock.milliseconds(ContinuousClock.now - start)
        return Row(
            variant: "tasks + Task.sleep", waits: count, baselineThreads: baseline, peakThreads: sampler.stop(),
            totalMs: elapsed, completed: count, timedOut: false)
    }

    func gcd(_ count: Int) async -> Row {
        let baseline = ProcessStats.threadCount()
        let sampler = ThreadPeakSampler()
        let capped = Locked(false)
        let completed = Locked(0)
        let group = DispatchGroup()
        let start = ContinuousClock.now
        let wait = UInt32(waitMilliseconds * 1000)
        for _ in 0..<count {
            DispatchQueue.global().async(group: group) {
                guard !capped.withLock({ $0 }) else { return }
                usleep(wait)  // ANTI-PATTERN (deliberate): a blocking wait parks a GCD thread
                completed.withLock { $0 += 1 }
            }
        }
        // Wait for the group without blocking a thread; the cap is a dispatch timer on a queue of its own.
        let timedOut = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let once = Locked(false)
            let resume = { @Sendable (timedOut: Bool) in
                let first = once.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: timedOut) }
            }
            let queue = DispatchQueue(label: "pinhole.experiments.cap")
            group.notify(queue: queue) { resume(false) }
            queue.asyncAfter(deadline: .now() + gcdCapSeconds) {
                capped.withLock { $0 = true }
                resume(true)
            }
        }
        let elapsed = ExperimentClock.milliseconds(ContinuousClock.now - start)
        let peak = sampler.stop()
        if timedOut {
            // Let the rest drain (blocks now return at once) before the next run.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                group.notify(queue: DispatchQueue(label: "pinhole.experiments.drain")) { continuation.resume() }
            }
        }
        return Row(
            variant: "gcd + blocking sleep", waits: count, baselineThreads: baseline, peakThreads: peak,
            totalMs: elapsed, completed: completed.withLock { $0 }, timedOut: timedOut)
    }
}
