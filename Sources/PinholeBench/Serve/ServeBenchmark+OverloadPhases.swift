import Foundation

extension ServeBenchmark {
    /// The five phases of ``runOverload(_:progress:)`` against one running server.
    struct OverloadPhases {
        let benchmark: ServeBenchmark
        let settings: ServeOverloadSettings
        let context: RunContext
        let python: String
        /// The server's process ID (its `/proc` figures).
        let pid: Int32
        /// `http://127.0.0.1:PORT`.
        let target: String
        let progress: @Sendable (String) -> Void

        var script: String { settings.scriptsDirectory + "/open-loop-load.py" }

        func run(corpus: ServeCorpus, loadBefore: Double) async throws -> ServeOverloadResult {
            try await Task.sleep(for: .seconds(1))
            let idle = ProcessSample.read(pid: pid)?.residentBytes ?? 0
            progress("idle RSS \(ServeBenchmark.rounded(Double(idle) / 1_000_000)) MB")
            let connections = 2 * benchmark.configuration.cores
            let capacityPlan = WrkRun.Plan(
                origin: target,
                paths: benchmark.coldPaths(settings.capacitySeconds * 200 + 64, tag: "capacity", context: context),
                connections: connections, threads: benchmark.configuration.cores, seconds: settings.capacitySeconds)
            let wrk = try await WrkRun.run(capacityPlan, in: context.work)
            let seconds = Double(wrk.durationMicroseconds) / 1_000_000
            let capacity = seconds > 0 ? Double(max(0, wrk.requests - wrk.errors)) / seconds : 0
            guard capacity > 0 else { throw BenchServeError("capacity run: no 200 in \(wrk.requests) requests") }
            progress("capacity \(ServeBenchmark.rounded(capacity)) answers/s (\(wrk.errors) errors)")
            let unloaded = try await openLoop(
                rate: settings.unloadedRate(capacity: capacity), seconds: settings.unloadedSeconds, tag: "unloaded")
            // Below capacity every answer must be made: anything else means the URLs are wrong (a signature, a source).
            guard unloaded.latencies("other").count == 0 else {
                throw BenchServeError("unloaded run: answers neither 200 nor 503: \(unloaded.statuses)")
            }
            progress("unloaded: p99 \(ServeBenchmark.rounded(unloaded.latencies("200").p99Milliseconds)) ms")
            let overloadPlan = plan(
                rate: settings.overloadRate(capacity: capacity), seconds: settings.seconds, tag: "overload")
            let (python, script, work) = (python, script, context.work)
            let (overload, sampledPeak) = try await sampled {
                try await OpenLoopRun.run(overloadPlan, python: python, script: script, in: work)
            }
            let peak = ProcessSample.read(pid: pid)?.peakResidentBytes ?? 0
            progress(
                "overload: \(overload.statuses) over \(ServeBenchmark.rounded(overload.wallSeconds)) s, "
                    + "peak RSS \(ServeBenchmark.rounded(Double(peak) / 1_000_000)) MB")
            var recovery: [Int] = []
            for _ in 0..<settings.recoverySeconds {
                try await Task.sleep(for: .seconds(1))
                recovery.append(ProcessSample.read(pid: pid)?.residentBytes ?? 0)
            }
            let configuration = benchmark.configuration
            return ServeOverloadResult(
                cores: configuration.cores, loadAverageBefore: loadBefore,
                loadAverageAfter: ServeBenchmark.loadAverage(), corpusFiles: corpus.files.count,
                corpusLongestSide: ServeCorpus.longestSide, corpusMeanBytes: corpus.meanBytes,
                signed: configuration.signed, memoryBudget: settings.memoryBudget, queueLimit: settings.queueLimit,
                activeLimit: settings.activeLimit,
                queueTimeoutSeconds: settings.queueTimeoutSeconds, serverEnvironment: settings.serverEnvironment,
                idleResidentBytes: idle, capacityConnections: connections, capacitySeconds: seconds,
                capacityPerSecond: capacity, capacityErrors: wrk.errors, unloaded: unloaded, overload: overload,
                peakResidentBytes: peak, sampledPeakResidentBytes: sampledPeak, recoveryResidentBytes: recovery,
                metrics: [:])
        }

        /// An open-loop run at `rate` for `seconds`, every request a new cold URL.
        func openLoop(rate: Double, seconds: Double, tag: String) async throws -> OpenLoopRun.Summary {
            try await OpenLoopRun.run(
                plan(rate: rate, seconds: seconds, tag: tag), python: python, script: script, in: context.work)
        }

        /// The plan of an open-loop run at `rate` for `seconds`: a new cold URL for every request (a few spare).
        func plan(rate: Double, seconds: Double, tag: String) -> OpenLoopRun.Plan {
            let count = Int((rate * seconds).rounded(.up)) + 8
            let urls = benchmark.coldPaths(count, tag: tag, context: context).map { target + $0 }
            return OpenLoopRun.Plan(urls: urls, rate: rate, seconds: seconds)
        }

        /// Runs `load` while the server's `VmRSS` is read every half second; returns its result and the highest
        /// RSS read.
        func sampled(
            _ load: @escaping @Sendable () async throws -> OpenLoopRun.Summary
        ) async throws -> (OpenLoopRun.Summary, Int) {
            let pid = pid
            return try await withThrowingTaskGroup(of: Sampled.self) { group in
                group.addTask { .load(try await load()) }
                group.addTask {
                    var highest = 0
                    while !Task.isCancelled {
                        highest = max(highest, ProcessSample.read(pid: pid)?.residentBytes ?? 0)
                        try? await Task.sleep(for: .milliseconds(500))
                    }
                    return .peak(highest)
                }
                var summary: OpenLoopRun.Summary?
                var peak = 0
                while let next = try await group.next() {
                    switch next {
                    case .load(let result):
                        summary = result
                        group.cancelAll()
                    case .peak(let value): peak = value
                    }
                }
                guard let summary else { throw BenchServeError("the overload run ended without a summary") }
                return (summary, peak)
            }
        }

        enum Sampled: Sendable {
            case load(OpenLoopRun.Summary)
            case peak(Int)
        }
    }
}
