import Foundation
import PinholeTestSupport
import Testing

@testable import Pinhole

/// Counting the complete scans of a JPEG as its bytes arrive.
@Suite(.timeLimit(scaledMinutes: 1))
struct ProgressiveJPEGScansTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/cases/inputs")

    static func read(_ name: String) async throws -> Data {
        try await WorkerThreadPool.io.run { try Data(contentsOf: fixtures.appendingPathComponent(name)) }
    }

    @Test(arguments: [1, 7, 512, 100_000])
    func countsCompleteScansWhateverTheChunkSize(chunk: Int) async throws {
        // Given a progressive JPEG with 10 scans, whose start-of-scan markers are at known offsets
        let data = try await Self.read("progressive.jpg")
        let starts = [236, 1038, 1465, 2680, 4078, 4700, 6018, 6381, 8686, 11184]
        var scans = ProgressiveJPEGScans()
        var end = 0
        // When it arrives `chunk` bytes at a time
        while end < data.count {
            end = min(data.count, end + chunk)
            scans.advance(data.prefix(end))
            // Then after each step the complete scans are those whose successor has started
            let started = starts.filter { $0 + 1 < end }.count
            if end < data.count {
                #expect(scans.startedScans <= started && scans.startedScans >= max(0, started - 1), "at \(end)")
            }
        }
        #expect(scans.isProgressive == true && scans.ended && scans.completeScans == 10)
    }

    @Test func aBaselineJPEGIsNotProgressive() async throws {
        var scans = ProgressiveJPEGScans()
        scans.advance(try await Self.read("baseline.jpg"))
        #expect(scans.isProgressive == false && scans.completeScans == 1)
    }
}
