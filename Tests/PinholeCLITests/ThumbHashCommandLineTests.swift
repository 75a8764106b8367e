import Foundation
import Pinhole
import PinholeTestSupport
import Testing

/// `pinhole thumbnail --json` and `--jsonl` give each output's ThumbHash.
@Suite(.timeLimit(scaledMinutes: 1))
struct ThumbHashCommandLineTests {
    static let input = PinholeExecutable.repositoryRoot.appendingPathComponent(
        "Tests/Fixtures/cases/inputs/baseline.jpg")

    @Test(arguments: ["--json", "--jsonl"])
    func eachOutputHasAThumbHashThatDecodesToItsShape(flag: String) async throws {
        // Given a landscape photo and an empty output directory
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("thumbhash-cli-\(UUID())")
        defer { try? FileManager.default.removeItem(at: out) }

        // When it is thumbnailed with the JSON flag
        let result = try await SpawnedProcess.run(
            [PinholeExecutable.path, "thumbnail", Self.input.path, "--out", out.path, flag])

        // Then the output's record carries a base64 ThumbHash whose placeholder is landscape too
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("thumbhash") })
        let text = flag == "--json" ? result.stdout : String(line)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let record = flag == "--json" ? try #require((object["outputs"] as? [[String: Any]])?.first) : object
        let base64 = try #require(record["thumbhash"] as? String)
        let hash = try #require(ThumbHash(base64: base64))
        let placeholder = hash.decoded()
        #expect(placeholder.width == 32 && placeholder.height < 32)
        #expect((record["width"] as? Int ?? 0) > (record["height"] as? Int ?? 0))
    }
}
