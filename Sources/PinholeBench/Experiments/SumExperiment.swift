import Dispatch
import Foundation
import Pinhole
import PinholeShared

/// Experiment (a): summing 50 M `Double`s serially, with `DispatchQueue.concurrentPerform`, and with task groups
/// of 10 / 100 / 1,000 / 100,000 chunks. Each variant is timed 3 times (after one warm-up); the median is
/// reported with its speed-up over the serial sum measured in the same run.
///
/// CPU-bound children of a task group run on Swift's cooperative pool (one thread per core): more chunks than
/// cores only add scheduling overhead, which this experiment makes visible.
struct SumExperiment {
    struct Row: Sendable, Codable, Hashable {
        /// `serial`, `concurrentPerform (N)` or `task group, N chunks`.
        var variant: String
        var chunks: Int
        /// Median wall time in milliseconds, and the serial time divided by it.
        var medianMs: Double
        var speedup: Double
        /// The sum (all variants must agree to within rounding).
        var sum: Double
    }

    var count = 50_000_000
    var runs = 3
    var chunkCounts = [10, 100, 1_000, 100_000]

    func run(log: @Sendable (String) -> Void) async -> [Row] {
        let values = (0..<count).map { Double($0 % 1000) * 0.001 }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var rows: [Row] = []
        let serial = await measure { Self.sum(values, 0..<values.count) }
        rows.append(Row(variant: "serial", chunks: 1, medianMs: serial.ms, speedup: 1, sum: serial.sum))
        log("sum: serial \(String(format: "%.1f", serial.ms)) ms")
        let perform = await measure { Self.concurrentPerformSum(values, chunks: cores) }
        rows.append(
            Row(
                variant: "concurrentPerform (\(cores) chunks)", chunks: cores, medianMs: perform.ms,
                speedup: serial.ms / perform.ms, sum: perform.sum))
        for chunks in chunkCounts {
            let grouped = await measureAsync { await Self.taskGroupSum(values, chunks: chunks) }
            rows.append(
                Row(
                    variant: "task group, \(chunks) chunks", chunks: chunks, medianMs: grouped.ms,
                    speedup: serial.ms / grouped.ms, sum: grouped.sum))
            log("sum: \(chunks) chunks \(String(format: "%.1f", grouped.ms)) ms")
        }
        return rows
    }

    /// The sum of `values[range]`, read through a buffer pointer (no bounds checks in the loop).
    static func sum(_ values: [Double], _ range: Range<Int>) -> Double {
        values.withUnsafeBufferPointer { buffer in
            var total = 0.0
            for index in range { total += buffer[index] }
            return total
        }
    }

    static func chunkRange(_ chunk: Int, of chunks: Int, count: Int) -> Range<Int> {
        (count * chunk / chunks)..<(count * (chunk + 1) / chunks)
    }

    static func concurrentPerformSum(_ values: [Double], chunks: Int) -> Double {
        let partials = Locked<[Double]>(Array(repeating: 0, count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let partial = sum(values, chunkRange(chunk, of: chunks, count: values.count))
            partials.withLock { $0[chunk] = partial }
        }
        return partials.withLock { $0.reduce(0, +) }
    }

    static func taskGroupSum(_ values: [Double], chunks: Int) async -> Double {
        await withTaskGroup(of: Double.self) { group in
            for chunk in 0..<chunks {
                group.addTask { sum(values, chunkRange(chunk, of: chunks, count: values.count)) }
            }
            var total = 0.0
            for await partial in group { total += partial }
            return total
        }
    }

    private func measure(_ body: () -> Double) async -> (ms: Double, sum: Double) {
        await measureAsync { body() }
    }

    private func measureAsync(_ body: () async -> Double) async -> (ms: Double, sum: Double) {
        var times: [Double] = []
        var result = 0.0
        for round in 0...runs {
            let start = ContinuousClock.now
            result = await body()
            let elapsed = ContinuousClock.now - start
            if round > 0 { times.append(ExperimentClock.milliseconds(elapsed)) }
        }
        return (Samples(times).median, result)
    }
}

/// Small helpers shared by the experiments.
enum ExperimentClock {
    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// Keeps the CPU busy on the calling thread until `deadline`, checking the clock every few microseconds.
    static func spin(until deadline: ContinuousClock.Instant) -> Double {
        var accumulator = 1.0
        while ContinuousClock.now < deadline {
            for step in 0..<2_000 { accumulator = accumulator * 1.000_000_1 + Double(step & 7) * 1e-9 }
        }
        return accumulator
    }
}
