import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

/// The command-line cases of the second case set (Tests/Fixtures/cases-s2): S03 and S04a run twice over one
/// `--cache-dir`, S05d an unparseable URL argument, S06b a URL whose host and path make a name over 255 bytes.
/// The built binary runs against a loopback server started by the test.
@Suite(.timeLimit(scaledMinutes: 2))
struct ManifestS2CommandLineTests {
    static func input(_ name: String) throws -> Data {
        try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/cases-s2/inputs/\(name)"))
    }

    /// Disk-cache entry files (32 hexadecimal digits) in `directory`.
    private func entryCount(_ directory: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.count == 32 && $0.allSatisfy(\.isHexDigit) }.count
    }

    /// Runs `pinhole thumbnail URL --cache-dir cache --json` twice (outputs to `a` then `b`).
    private func runTwice(_ url: URL, in directory: TemporaryDirectory) async throws -> (JSONReport, JSONReport) {
        var reports: [JSONReport] = []
        for out in ["a", "b"] {
            let result = try await PinholeBinary.run(
                ["thumbnail", url.absoluteString, "--out", out, "--cache-dir", "cache", "--json"], in: directory.path)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            reports.append(try JSONReport(result.stdout))
        }
        return (reports[0], reports[1])
    }

    @Test func s03NoStoreSecondRunDownloadsAgainAndTheCacheStaysEmpty() async throws {
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route(
            "/s03/no-store.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "no-store"],
                body: try Self.input("s03-no-store.jpg"), etag: "\"s03\""))
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let (first, second) = try await runTwice(server.url("/s03/no-store.jpg"), in: directory)
        #expect(entryCount(directory.file("cache")) == 0)
        #expect((first.downloads, second.downloads, second.diskHits) == (1, 1, 0))
        #expect(server.requestCount(for: "/s03/no-store.jpg") == 2)
        #expect(server.lastRequest(for: "/s03/no-store.jpg")?.headers["if-none-match"] == nil)
        #expect(second.outputs.map { [$0.width, $0.height] } == [[360, 360]])
    }

    @Test func s04aExpiresZeroSecondRunRevalidates() async throws {
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route(
            "/s04/expires-0.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "expires": "0"],
                body: try Self.input("s04-expires-invalid.jpg"), etag: "\"s04a\""))
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let (_, second) = try await runTwice(server.url("/s04/expires-0.jpg"), in: directory)
        #expect(server.requestCount(for: "/s04/expires-0.jpg") == 2)
        #expect(server.lastRequest(for: "/s04/expires-0.jpg")?.headers["if-none-match"] == "\"s04a\"")
        #expect(server.stats.notModified == 1)
        #expect(second.diskHits == 1)
        #expect(second.outputs.map { [$0.width, $0.height] } == [[270, 360]])
    }

    @Test func s05dAnUnparseableURLIsAnInputErrorAndTheOthersStillRun() async throws {
        // Given a URL with a space in its host, next to a good file
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.copyFixture("orient-1.jpg", to: "good.jpg")
        let bad = "http://exa mple.com/s05/plain.jpg"
        // When both are thumbnailed, and the bad one alone
        let result = try await PinholeBinary.run(
            ["thumbnail", bad, "good.jpg", "--out", "out", "--json"], in: directory.path)
        let alone = try await PinholeBinary.run(["thumbnail", bad, "--out", "out2"], in: directory.path)
        // Then the URL is listed as invalid_input, the file is written, and both runs exit 1
        #expect(result.status == 1)
        let report = try JSONReport(result.stdout)
        #expect(report.errors.map(\.input) == [bad])
        #expect(report.errors.map(\.kind) == ["invalid_input"])
        #expect(report.succeeded == 1)
        #expect(alone.status == 1)
        #expect(alone.stdout.contains("invalid_input"), "\(alone.stdout)")
        #expect(!alone.stdout.contains("No images found"))
    }

    @Test func s06bALongURLGivesANameOf255BytesAtMost() async throws {
        // Given an image at a URL whose path segments are legal but whose host + path is about 330 bytes
        let server = try PinholeTestServer()
        defer { server.stop() }
        let body = try Self.input("s06-long-url.jpg")
        server.setHandler { request in request.path.hasPrefix("/s06/") ? .image(body) : nil }
        let name = String(repeating: "東京タワーと夜景の写真", count: 4)  // 44 characters, 132 bytes
        let url = server.url("/s06/commons/thumb/0/0b/\(name).jpg/700px-\(name).jpg")
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        // When it is thumbnailed
        let result = try await PinholeBinary.run(
            ["thumbnail", url.absoluteString, "--out", "out", "--json"],
            in: directory.path)
        // Then it succeeds with a name within 255 bytes, and the file holds the 300×200 thumbnail
        #expect(result.status == 0, "stdout: \(result.stdout) stderr: \(result.stderr)")
        let report = try JSONReport(result.stdout)
        let output = try #require(report.outputs.first?.output)
        let fileName = URL(fileURLWithPath: output).lastPathComponent
        #expect(fileName.utf8.count <= 255)
        #expect(fileName.hasPrefix("127.0.0.1__s06__commons__thumb__0__0b__東京"))
        let written = try Data(contentsOf: URL(fileURLWithPath: directory.file(output)))
        #expect(ImageHeader.size(of: written).map { [$0.width, $0.height] } == [300, 200])
    }
}
