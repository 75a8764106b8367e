import Foundation
import Pinhole
import PinholeBench
import PinholeCurl
import PinholeShared
import PinholeTestServer
import PinholeVips

/// The cancellation storm (`pinhole debug storm`): many requests over a few hundred URLs, with random
/// cancellations and priority changes, against a loopback server with random latency and faults, through the
/// real pipeline, the libcurl loader and libvips. Afterwards it checks that nothing is left behind.
///
/// Checks (any failure gives exit status 1): every request got exactly one answer; the pipeline has no image
/// job and no queued or running download, the loader no transfer; once the pipeline and server are gone, open
/// file descriptors return to their baseline (+2) and threads to theirs (+8, for idle dispatch workers) within
/// 30 s. A continuation resumed twice or never traps or hangs the process, so finishing is itself a check.
enum CancellationStorm {
    struct Report: Codable {
        var seed: UInt64
        var requests: Int
        var urls: Int
        var succeeded = 0
        var failed = 0
        var cancelled = 0
        var unexpected = 0
        var failureKinds: [String: Int] = [:]
        var activeImageJobs = -1
        var networkRunning = -1
        var networkWaiting = -1
        var activeTransfers = -1
        var baselineFileDescriptors = 0
        var finalFileDescriptors = 0
        var baselineThreads = 0
        var finalThreads = 0
        var peakThreads = 0
        var seconds = 0.0
        var passed = false

        var answers: Int { succeeded + failed + cancelled + unexpected }
    }

    /// What one request does: which URL and size, and whether it is cancelled or re-prioritised (and when).
    struct Plan: Sendable {
        var url: Int
        var size: Int
        var action: Action
        var delay: Duration
        var priority: ImageRequest.Priority

        enum Action: Sendable { case await, cancel, reprioritise }
    }

    static let urlCount = 200

    static func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let seed = UInt64(try DebugCommand.integer("--seed", in: arguments, default: 1))
        let requests = try DebugCommand.integer("--requests", in: arguments, default: 10_000)
        do {
            let report = try await storm(seed: seed, requests: requests)
            DebugCommand.printJSON(report)
            return report.passed ? 0 : 1
        } catch {
            FileHandle.standardError.write(Data("pinhole debug storm: \(error)\n".utf8))
            return 1
        }
    }

    static func storm(seed: UInt64, requests: Int) async throws -> Report {
        var rng = SeededGenerator(seed: seed)
        let images = try await smallJPEGs(count: urlCount)
        // Warm up lazily made pools and libcurl once, so the baseline includes them.
        try await warmUp(image: images[0])
        try await Task.sleep(for: .milliseconds(500))
        var report = Report(seed: seed, requests: requests, urls: urlCount)
        report.baselineFileDescriptors = DebugCommand.openFileDescriptorCount()
        report.baselineThreads = ProcessStats.threadCount()
        let start = ContinuousClock.now

        do {
            let server = try PinholeTestServer()
            for index in 0..<urlCount { server.route("/s/\(index).jpg", route(for: images[index], using: &rng)) }
            let plans = (0..<requests).map { _ in plan(using: &rng) }
            var loaderSettings = HTTPDataLoader.Configuration()
            loaderSettings.stallTimeout = .seconds(1)
            loaderSettings.deadline = .seconds(20)
            loaderSettings.maxConnectionsPerHost = 16
            let loader = HTTPDataLoader(configuration: loaderSettings)
            var configuration = ImagePipeline.Configuration(
                decoder: VipsDecoder(pool: WorkerThreadPool(threadCount: 2, name: "storm-decode")),
                dataLoader: SchemeRoutingDataLoader(http: loader))
            configuration.networkConcurrencyLimit = 16
            // A small cache: some requests hit it, most run or join jobs, and evictions happen throughout.
            configuration.memoryCache = MemoryCache(configuration: .init(costLimit: 300_000))
            let pipeline = ImagePipeline(configuration: configuration)

            let outcomes = await fire(plans, pipeline: pipeline, server: server)
            for outcome in outcomes {
                switch outcome {
                case .success: report.succeeded += 1
                case .cancelled: report.cancelled += 1
                case .failure(let kind):
                    report.failed += 1
                    report.failureKinds[kind, default: 0] += 1
                case .unexpected(let text):
                    report.unexpected += 1
                    report.failureKinds["unexpected: \(text)", default: 0] += 1
                }
            }
            report.peakThreads = ProcessStats.threadCount()
            // Jobs and transfers end soon after their last caller left: wait for that state.
            _ = await waitUntil(seconds: 30) {
                pipeline.activeImageJobCount == 0 && pipeline.networkQueueCounts == (0, 0)
                    && loader.activeTransferCount == 0
            }
            report.activeImageJobs = pipeline.activeImageJobCount
            (report.networkRunning, report.networkWaiting) = pipeline.networkQueueCounts
            report.activeTransfers = loader.activeTransferCount
            server.stop()
        }
        // The pipeline, loader (its thread and libcurl handles are released) and server are gone: sockets must close.
        _ = await waitUntil(seconds: 30) {
            DebugCommand.openFileDescriptorCount() <= report.baselineFileDescriptors + 2
                && ProcessStats.threadCount() <= report.baselineThreads + 8
        }
        report.finalFileDescriptors = DebugCommand.openFileDescriptorCount()
        report.finalThreads = ProcessStats.threadCount()
        let elapsed = ContinuousClock.now - start
        report.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        report.passed =
            report.answers == requests && report.unexpected == 0 && report.activeImageJobs == 0
            && report.networkRunning == 0 && report.networkWaiting == 0 && report.activeTransfers == 0
            && report.finalFileDescriptors <= report.baselineFileDescriptors + 2
            && report.finalThreads <= report.baselineThreads + 8
        return report
    }

    enum Outcome: Sendable {
        case success
        case cancelled
        case failure(String)
        case unexpected(String)
    }

    /// Runs every plan, at most 300 at once; one outcome per plan.
    static func fire(_ plans: [Plan], pipeline: ImagePipeline, server: PinholeTestServer) async -> [Outcome] {
        await withTaskGroup(of: Outcome.self) { group in
            var outcomes: [Outcome] = []
            outcomes.reserveCapacity(plans.count)
            var next = 0
            func add() {
                let plan = plans[next]
                next += 1
                group.addTask { await perform(plan, pipeline: pipeline, server: server) }
            }
            while next < min(300, plans.count) { add() }
            while let outcome = await group.next() {
                outcomes.append(outcome)
                if next < plans.count { add() }
            }
            return outcomes
        }
    }

    static func perform(_ plan: Plan, pipeline: ImagePipeline, server: PinholeTestServer) async -> Outcome {
        let request = ImageRequest(
            url: server.url("/s/\(plan.url).jpg"), thumbnail: ThumbnailOptions(maxPixelSize: plan.size),
            priority: plan.priority)
        let task = pipeline.imageTask(for: request)
        switch plan.action {
        case .await:
            break
        case .cancel:
            try? await Task.sleep(for: plan.delay)
            task.cancel()
        case .reprioritise:
            try? await Task.sleep(for: plan.delay)
            task.priority = plan.priority == .veryHigh ? .veryLow : .veryHigh
            task.priority = .high
        }
        do {
            _ = try await task.response
            return .success
        } catch is CancellationError {
            return .cancelled
        } catch let error as PinholeError {
            return .failure(error.code.kind)
        } catch {
            return .unexpected(String(describing: type(of: error)))
        }
    }

    static func plan(using rng: inout SeededGenerator) -> Plan {
        let roll = Int.random(in: 0..<100, using: &rng)
        let action: Plan.Action = roll < 30 ? .cancel : roll < 50 ? .reprioritise : .await
        let priorities: [ImageRequest.Priority] = [.veryLow, .low, .normal, .high, .veryHigh]
        return Plan(
            url: Int.random(in: 0..<urlCount, using: &rng), size: [32, 48, 64].randomElement(using: &rng)!,
            action: action, delay: .microseconds(Int.random(in: 0..<20_000, using: &rng)),
            priority: priorities.randomElement(using: &rng)!)
    }

    /// 70% healthy with 0–30 ms latency; the rest 500, reset, truncated, HTML, trickle or a stall.
    static func route(for image: Data, using rng: inout SeededGenerator) -> Route {
        let latency = Duration.milliseconds(Int.random(in: 0...30, using: &rng))
        let jpeg = ["content-type": "image/jpeg"]
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<70: return .image(image, latency: latency)
        case 70..<76: return Route(status: 500, body: Data("oops".utf8), latency: latency)
        case 76..<82: return Route(headers: jpeg, body: image, latency: latency, behavior: .reset(afterBytes: 200))
        case 82..<88: return Route(headers: jpeg, body: image, latency: latency, behavior: .truncate(afterBytes: 200))
        case 88..<92: return .html("<!DOCTYPE html><html>no</html>")
        case 92..<97: return Route(headers: jpeg, body: image, behavior: .trickle(bytes: 256, every: .milliseconds(5)))
        default: return Route(headers: jpeg, body: image, behavior: .stall(afterBytes: 100))
        }
    }

    /// `count` distinct 64×48 baseline JPEGs (one colour each).
    static func smallJPEGs(count: Int) async throws -> [Data] {
        var result: [Data] = []
        let encoder = VipsEncoder(pool: .cpu)
        for index in 0..<count {
            let rgb: [UInt8] = [UInt8(index % 256), UInt8((index * 37) % 256), UInt8((index * 91) % 256)]
            let pixels = (0..<(64 * 48)).flatMap { _ in rgb }
            let image = PixelImage(width: 64, height: 48, pixelFormat: .rgb8, pixels: pixels)
            result.append(try await encoder.encode(image, options: EncodingOptions(format: .jpeg, quality: 70)))
        }
        return result
    }

    /// One request through a throwaway pipeline and server.
    static func warmUp(image: Data) async throws {
        let server = try PinholeTestServer()
        server.route("/w.jpg", .image(image))
        let pipeline = ImagePipeline(
            configuration: .init(decoder: VipsDecoder(), dataLoader: SchemeRoutingDataLoader(http: HTTPDataLoader())))
        let request = ImageRequest(url: server.url("/w.jpg"), thumbnail: ThumbnailOptions(maxPixelSize: 32))
        _ = try await pipeline.image(for: request)
        server.stop()
    }

    /// Polls `condition` every 20 ms for up to `seconds`.
    static func waitUntil(seconds: Int, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}
