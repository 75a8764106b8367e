import Foundation
import PinholeTestServer
import PinholeTestSupport
import Testing

/// `pinhole thumbnail --jsonl` prints where each input's time went (the pipeline's `ImageTaskMetrics`).
@Suite(.timeLimit(scaledMinutes: 1))
struct ThumbnailMetricsCommandLineTests {
    static let input = PinholeExecutable.repositoryRoot.appendingPathComponent(
        "Tests/Fixtures/cases/inputs/baseline.jpg")

    @Test func eachJSONLineHasTheMetricsOfItsInputAFailureToo() async throws {
        // Given a photo on a loopback server, the same photo as a file, and a URL the server answers with 404
        let photo = try await readData(atPath: Self.input.path)
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route("/photo.jpg", .image(photo, latency: .milliseconds(10)))
        server.route("/gone.jpg", Route(status: 404))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-cli-\(UUID())")
        defer { try? FileManager.default.removeItem(at: out) }
        // When they are thumbnailed with --jsonl
        let result = try await SpawnedProcess.run([
            PinholeExecutable.path, "thumbnail", server.url("/photo.jpg").absoluteString, Self.input.path,
            server.url("/gone.jpg").absoluteString, "--out", out.path, "--jsonl",
        ])
        // Then the download's line says network, with its bytes and stages; the file's says file; the failure's
        // has a record without a source
        let records = try result.stdout.split(separator: "\n").dropLast().map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        func metrics(of input: String) throws -> [String: Any] {
            let record = try #require(records.first { ($0["input"] as? String)?.hasSuffix(input) == true })
            return try #require(record["metrics"] as? [String: Any], "\(record)")
        }
        let download = try metrics(of: "/photo.jpg")
        #expect(download["source"] as? String == "network")
        #expect(download["bytesReceived"] as? Int == photo.count)
        let stages = try #require(download["stageSeconds"] as? [String: Double])
        #expect((stages["first_byte"] ?? 0) > 0)
        #expect((stages["decode"] ?? 0) > 0)
        #expect((download["totalSeconds"] as? Double ?? 0) > 0)
        let file = try metrics(of: "baseline.jpg")
        #expect(file["source"] as? String == "file")
        #expect(file["bytesReceived"] as? Int == photo.count)
        let failure = try metrics(of: "/gone.jpg")
        #expect(failure["source"] == nil)
        #expect((failure["totalSeconds"] as? Double ?? 0) > 0)
    }
}
