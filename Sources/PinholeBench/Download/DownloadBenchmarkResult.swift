import Foundation

/// The figures of ``DownloadBenchmark``, per transport.
public struct DownloadBenchmarkResult: Sendable, Codable {
    /// One transport's figures.
    public struct Figures: Sendable, Codable {
        /// Wall time of a run ÷ requests, microseconds (6 at a time: amortised, not latency).
        public var microsecondsPerRequest = Samples()
        /// The client's CPU time (user + system, all its threads) ÷ requests, microseconds.
        public var cpuMicrosecondsPerRequest = Samples()
        /// Threads (excluding the in-process server's) before, and at the peak of, a run.
        public var baselineThreads = 0
        public var peakThreads = 0
    }

    public var requests: Int
    public var concurrency: Int
    /// The size of the one image every URL serves, bytes.
    public var imageBytes: Int
    /// By transport name (`libcurl`, `urlsession`).
    public var figures: [String: Figures] = [:]
    public var cores = 0

    /// A table for people.
    public var text: String {
        func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
        var lines = [
            "Download benchmark: \(requests) images of \(imageBytes) bytes from a loopback server, \(concurrency) at a time"
                + " (median of \(figures.values.first?.microsecondsPerRequest.values.count ?? 0) runs; spread in brackets)",
            "transport    wall µs/request      CPU µs/request       threads (baseline → peak)",
        ]
        for (name, figure) in figures.sorted(by: { $0.key < $1.key }) {
            let wall = "\(f(figure.microsecondsPerRequest.median)) [±\(f(figure.microsecondsPerRequest.relativeSpread * 50))%]"
            let cpu = "\(f(figure.cpuMicrosecondsPerRequest.median)) [±\(f(figure.cpuMicrosecondsPerRequest.relativeSpread * 50))%]"
            lines.append(
                name.padding(toLength: 13, withPad: " ", startingAt: 0) + wall.padding(toLength: 21, withPad: " ", startingAt: 0)
                    + cpu.padding(toLength: 21, withPad: " ", startingAt: 0)
                    + "\(figure.baselineThreads) → \(figure.peakThreads) (+\(figure.peakThreads - figure.baselineThreads))")
        }
        if let curl = figures["libcurl"], let session = figures["urlsession"], curl.cpuMicrosecondsPerRequest.median > 0 {
            lines.append("libcurl / URLSession: wall \(f(curl.microsecondsPerRequest.median / session.microsecondsPerRequest.median, 2))×, "
                + "CPU \(f(curl.cpuMicrosecondsPerRequest.median / session.cpuMicrosecondsPerRequest.median, 2))×")
        }
        return lines.joined(separator: "\n")
    }
}
