import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The cancellation storm in a child process (`pinhole debug storm`), so its file-descriptor and thread counts
/// are its own: 10,000 requests over 200 URLs with seeded random cancellations, priority changes, latency and
/// faults, through the real pipeline, the libcurl loader and libvips.
///
/// The full 10,000 requests run with `PINHOLE_STRESS=1` (`.ci/run` runs the stress tests on their own, after the
/// suite); the ordinary parallel suite runs 2,000, so the storm does not starve the timing of other tests.
@Suite(.timeLimit(scaledMinutes: 3))
struct CancellationStormTests {
    static let requests = ProcessInfo.processInfo.environment["PINHOLE_STRESS"] == "1" ? 10_000 : 2_000

    struct Report: Decodable {
        var requests: Int
        var succeeded: Int
        var failed: Int
        var cancelled: Int
        var unexpected: Int
        var activeImageJobs: Int
        var networkRunning: Int
        var networkWaiting: Int
        var activeTransfers: Int
        var baselineFileDescriptors: Int
        var finalFileDescriptors: Int
        var baselineThreads: Int
        var finalThreads: Int
        var passed: Bool
    }

    @Test func everyRequestGetsOneAnswerAndNothingIsLeftBehind() async throws {
        // Given a fresh process
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        // When it runs the storm
        let arguments = ["debug", "storm", "--seed", "1", "--requests", "\(Self.requests)"]
        let result = try await PinholeBinary.run(arguments, in: directory.path)
        let report = try #require(
            try? JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8)),
            """
            no report: status \(result.status), stdout \(result.stdout.prefix(400)), stderr (a crash's reason and \
            crashed thread come first) \(result.stderr.prefix(6000)) … \(result.stderr.suffix(1500))
            """)
        // Then every caller got exactly one answer, of each kind
        #expect(report.requests == Self.requests)
        #expect(report.succeeded + report.failed + report.cancelled == Self.requests)
        #expect(report.unexpected == 0)
        #expect(
            report.succeeded > Self.requests / 10 && report.failed > Self.requests / 100
                && report.cancelled > Self.requests / 10)
        // And no job, queued download or transfer is left; sockets and threads are back to their baseline
        #expect(report.activeImageJobs == 0)
        #expect(report.networkRunning == 0 && report.networkWaiting == 0)
        #expect(report.activeTransfers == 0)
        #expect(report.finalFileDescriptors <= report.baselineFileDescriptors + 2)
        #expect(report.finalThreads <= report.baselineThreads + 8)
        // And the process exited cleanly: no checked-continuation misuse, no crash
        #expect(result.status == 0, "\(result.stdout)")
        #expect(!result.stderr.contains("continuation"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
        #expect(report.passed)
    }
}
