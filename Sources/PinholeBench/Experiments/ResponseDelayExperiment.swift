import Foundation
import Pinhole
import PinholeCurl
import PinholeTestServer

/// Experiment (c): how late a network response is handled while every core runs a 3 s CPU job.
///
/// A loopback request whose response comes after 300 ms is sent; once the server has its head, one CPU job per
/// core starts. The delay is the time from the response being due (request seen + 300 ms) to the awaiting task
/// running again with the bytes. Variants: jobs and request at equal priority on the cooperative pool; the
/// request at a higher priority; jobs yielding (`Task.yield()`) every 5 ms and every 50 ms; jobs on a dedicated
/// executor (``WorkerThreadPool``) so the cooperative pool stays free. An idle run (no jobs) is the reference.
/// Each variant is measured 3 times; the median is reported.
struct ResponseDelayExperiment {
    struct Row: Sendable, Codable, Hashable {
        var variant: String
        /// Milliseconds between the response being due and the task handling it (median of ``rounds``).
        var delayMs: Double
        /// CPU jobs run and their length in seconds.
        var cpuJobs: Int
        var jobSeconds: Double
    }

    enum Variant: CaseIterable {
        case idle, equalPriority, higherPriority, yieldEvery5ms, yieldEvery50ms, dedicatedExecutor

        var name: String {
            switch self {
            case .idle: "no CPU jobs (reference)"
            case .equalPriority: "jobs and request at equal priority"
            case .higherPriority: "request at higher priority (.high)"
            case .yieldEvery5ms: "jobs yield every 5 ms"
            case .yieldEvery50ms: "jobs yield every 50 ms"
            case .dedicatedExecutor: "jobs on a dedicated executor (WorkerThreadPool)"
            }
        }
    }

    var jobSeconds = 3.0
    var latencyMilliseconds = 300
    /// Measurements per variant; the median is reported.
    var rounds = 3

    func run(log: @Sendable (String) -> Void) async throws -> [Row] {
        let server = try PinholeTestServer()
        defer { server.stop() }
        // The loader sniffs bodies: JPEG magic bytes, then filler (nothing is decoded here).
        let body = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(count: 20_000)
        server.route("/late", Route(body: body, latency: .milliseconds(latencyMilliseconds)))
        server.route("/warm", Route(body: body))
        let loader = HTTPDataLoader()
        // One request first, so the session and its threads exist before anything is measured.
        _ = try await loader.loadData(for: DataRequest(url: server.url("/warm")))
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let pool = WorkerThreadPool(threadCount: cores, name: "pinhole-exp")
        var rows: [Row] = []
        for variant in Variant.allCases {
            var delays = Samples()
            for _ in 0..<rounds {
                delays.append(try await measure(variant, server: server, loader: loader, cores: cores, pool: pool))
            }
            let delay = delays.median
            rows.append(
                Row(
                    variant: variant.name, delayMs: delay, cpuJobs: variant == .idle ? 0 : cores,
                    jobSeconds: jobSeconds))
            log("response delay: \(variant.name): \(String(format: "%.0f", delay)) ms")
        }
        return rows
    }

    private func measure(
        _ variant: Variant, server: PinholeTestServer, loader: HTTPDataLoader, cores: Int, pool: WorkerThreadPool
    ) async throws -> Double {
        let path = "/late"
        let before = server.requestCount(for: path)
        let url = server.url(path)
        let requestPriority: TaskPriority = variant == .higherPriority ? .high : .medium
        let request = Task.detached(priority: requestPriority) { () throws -> ContinuousClock.Instant in
            _ = try await loader.loadData(for: DataRequest(url: url))
            return ContinuousClock.now
        }
        // The response is due `latency` after the server has read the request head.
        while server.requestCount(for: path) == before { try await Task.sleep(for: .milliseconds(1)) }
        let due = ContinuousClock.now + .milliseconds(latencyMilliseconds)
        let jobs = startJobs(variant, cores: cores, pool: pool)
        let handled = try await request.value
        for job in jobs { await job.value }
        return ExperimentClock.milliseconds(handled - due)
    }

    private func startJobs(_ variant: Variant, cores: Int, pool: WorkerThreadPool) -> [Task<Void, Never>] {
        let seconds = jobSeconds
        return (0..<(variant == .idle ? 0 : cores)).map { _ in
            Task.detached(priority: .medium) {
                let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
                switch variant {
                case .idle:
                    return
                case .equalPriority, .higherPriority:
                    blackHole(ExperimentClock.spin(until: deadline))
                case .yieldEvery5ms, .yieldEvery50ms:
                    let slice = Duration.milliseconds(variant == .yieldEvery5ms ? 5 : 50)
                    while ContinuousClock.now < deadline {
                        blackHole(ExperimentClock.spin(until: min(deadline, ContinuousClock.now + slice)))
                        await Task.yield()
                    }
                case .dedicatedExecutor:
                    _ = try? await pool.run { blackHole(ExperimentClock.spin(until: deadline)) }
                }
            }
        }
    }
}
