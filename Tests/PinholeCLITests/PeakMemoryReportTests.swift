import Foundation
import PinholeShared
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The peak RSS a run reports is its own, not its parent's: Linux carries the parent's high-water mark into
/// a spawned child's `ru_maxrss`, which made a small batch run started by a big process report the big
/// process's memory (see ProcessStats.peakResidentBytes()).
@Suite(.timeLimit(scaledMinutes: 2))
struct PeakMemoryReportTests {
    @Test func aRunStartedByABigProcessReportsItsOwnPeak() async throws {
        // Given this (parent) process holding 300 MB it has touched
        var ballast = [UInt8](repeating: 0, count: 300_000_000)
        for index in stride(from: 0, to: ballast.count, by: 4096) { ballast[index] = 1 }
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.copyFixture("baseline.jpg")
        try directory.write(Data("baseline.jpg\n".utf8), to: "list.txt")

        // When it starts a one-input batch run that reports in JSON
        let result = try await PinholeBinary.run(
            ["thumbnail", "--input-list", "list.txt", "--size", "64", "--json"], in: directory.path)

        // Then the reported peak is the child's (tens of MB), far below the parent's 300 MB
        #expect(result.status == 0, "stderr: \(result.stderr)")
        struct Summary: Decodable { var peakRSSBytes: Int }
        let summary = try JSONDecoder().decode(Summary.self, from: Data(result.stdout.utf8))
        #expect(summary.peakRSSBytes > 10_000_000)
        #expect(summary.peakRSSBytes < 200_000_000, "reported \(summary.peakRSSBytes) bytes")
        #expect(ballast[4096] == 1)
    }
}
