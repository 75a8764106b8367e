import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import PinholeBench

/// `pinhole bench serve --overload` end to end with short phases: the built `pinhole serve` behind a loopback
/// nginx origin, wrk for its capacity, then `scripts/open-loop-load.py` well above it.
@Suite(.timeLimit(scaledMinutes: 2))
struct ServeOverloadTests {
    static let tools = ["/usr/bin/wrk", "/usr/sbin/nginx", "/usr/bin/vipsthumbnail", "/usr/bin/curl"]
    static var toolsPresent: Bool {
        (tools + [PinholeExecutable.path]).allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Not under a sanitizer: the figures there measure the sanitizer (under AddressSanitizer the capacity phase
    /// was too short to see the real capacity and no request was refused), and LeakSanitizer reports the object
    /// graph of Foundation's `Process` for the Python client (all indirect: a cycle, not pinned down yet; wrk's
    /// runs through the same `ChildProcess` leak nothing).
    @Test(
        .enabled(if: toolsPresent, "needs wrk, nginx, vipsthumbnail, curl and the built pinhole"),
        .disabled(if: LoadFactor.isSanitizedRun, "a benchmark's shape; see the comment"))
    func overloadAboveCapacityIsAnsweredWithBoth200sAnd503sAndTheGoalsAreReported() async throws {
        // Given two copies of the 4096 px fixture JPEG as the corpus, and the server's default admission flags
        // with phases of a few seconds
        let temporary = try await onOwnThread { try TemporaryDirectory(prefix: "overload-corpus") }
        defer { temporary.remove() }
        let corpus = temporary.url
        let fixture = PinholeExecutable.repositoryRoot.appendingPathComponent(
            "Tests/Fixtures/cases/inputs/large-4096x4096.jpg")
        try await onOwnThread {
            for name in ["a.jpg", "b.jpg"] {
                try FileManager.default.copyItem(at: fixture, to: corpus.appendingPathComponent(name))
            }
        }
        let configuration = ServeBenchmark.Configuration(
            corpus: corpus.path, pinholeExecutable: PinholeExecutable.path, signingArguments: ["--allow-unsigned"],
            signed: false, sign: { "/unsigned" + $0 })
        var settings = ServeOverloadSettings(
            scriptsDirectory: PinholeExecutable.repositoryRoot.appendingPathComponent("scripts").path)
        settings.capacitySeconds = 2
        settings.unloadedSeconds = 2
        settings.seconds = 3
        settings.recoverySeconds = 2
        // No queue: every request beyond the places is refused, so a capacity measured low on a loaded machine
        // still leaves 3 × it above what the places take
        settings.queueLimit = 0
        // and at least 16 requests per place in the overload run, so a machine too busy to measure the capacity
        // (CI's stress step: 1 answer in 2 s at a load of 12 on 2 cores) still sends more than the places take
        settings.minimumOverloadRequests = 16 * 2 * ProcessInfo.processInfo.activeProcessorCount
        settings.minimumUnloadedRequests = 2

        // When the overload benchmark runs (3 × the measured capacity, or the minimum)
        let result = try await ServeBenchmark(configuration: configuration).runOverload(settings) { _ in }

        // Then the overload got both admitted answers and refusals (counted by the server as a full queue, and
        // each in its access log), every phase has its figures, and the four goals are evaluated and printed
        let statuses = result.overload.statuses
        #expect((statuses["200"] ?? 0) > 0 && (statuses["503"] ?? 0) > 0, "statuses: \(statuses)")
        #expect(result.overload.latencies("503").count == statuses["503"])
        #expect(result.serverOverload["503"]?.count == statuses["503"])
        #expect(result.serverOverload["200"]?.count == statuses["200"])
        #expect(result.metrics["admission_rejections_total{reason=\"queue_full\"}", default: 0] > 0)
        #expect(result.capacityPerSecond > 0 && result.unloaded.latencies("200").count > 0)
        #expect(abs(result.overload.rate - settings.overloadRate(capacity: result.capacityPerSecond)) < 1e-6)
        #expect(result.unloaded.scheduled >= 2 && result.overload.scheduled >= settings.minimumOverloadRequests)
        #expect(result.overload.scheduled == result.overload.completed && result.overload.wrapped == 0)
        #expect(result.idleResidentBytes > 0 && result.peakResidentBytes >= result.idleResidentBytes)
        #expect(result.recoveryResidentBytes.count == 2 && result.recoveryResidentBytes.allSatisfy { $0 > 0 })
        #expect(result.goals.map(\.name) == result.evaluatedGoals.map(\.name) && result.goals.count == 4)
        let goalLines = result.text.split(separator: "\n").filter { $0.hasPrefix("  PASS ") || $0.hasPrefix("  MISS ") }
        #expect(goalLines.count == 4)
        #expect(result.cachedBytes.map { $0 > 0 } == true, "the caches held \(String(describing: result.cachedBytes))")
        #expect(result.text.contains("--queue-limit \(settings.queueLimit)"))
    }
}
