import Foundation

/// The figures of ``DownloadBenchmark``.
public struct DownloadBenchmarkResult: Sendable, Codable {
    public var requests: Int
    public var concurrency: Int
    /// The size of the one image every URL serves, bytes.
    public var imageBytes: Int
    /// Wall time of a run ÷ requests, microseconds (6 at a time: amortised, not latency).
    public var microsecondsPerRequest = Samples()
    /// The client's CPU time (user + system, all its threads) ÷ requests, microseconds.
    public var cpuMicrosecondsPerRequest = Samples()
    /// Threads (excluding the in-process server's) before the loader existed, and at the peak of a run.
    public var baselineThreads = 0
    public var peakThreads = 0
    public var cores = 0

    /// A table for people.
    public var text: String {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        let wall = microsecondsPerRequest
        let cpu = cpuMicrosecondsPerRequest
        return """
            Download benchmark: \(requests) images of \(imageBytes) bytes from a loopback server, \(concurrency) \
            at a time, libcurl (median of \(wall.values.count) runs; spread in brackets)
            wall per request   \(f(wall.median)) µs  [±\(f(wall.relativeSpread * 50))%]
            CPU per request    \(f(cpu.median)) µs  [±\(f(cpu.relativeSpread * 50))%]   (client only)
            threads            \(baselineThreads) → \(peakThreads) (+\(peakThreads - baselineThreads))   target ≤ \
            +\(2 * cores)
            """
    }
}
