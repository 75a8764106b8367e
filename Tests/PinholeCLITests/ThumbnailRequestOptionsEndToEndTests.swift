import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

/// `pinhole thumbnail` with the request flags (box, fill and crop, scale, headers, offline) and the encoded
/// thumbnail disk cache: the built binary against a loopback server started by the test.
@Suite(.timeLimit(scaledMinutes: 3))
struct ThumbnailRequestOptionsEndToEndTests {
    /// The fields of the `--json` report these tests read.
    struct Report: Decodable {
        struct Output: Decodable {
            var output: String
            var width: Int
            var height: Int
        }
        struct Failure: Decodable {
            var kind: String
        }
        var succeeded: Int
        var outputs: [Output]
        var errors: [Failure]
        var downloads: Int
        var decodes: Int
        var thumbnailDiskHits: Int

        init(_ text: String) throws { self = try JSONDecoder().decode(Report.self, from: Data(text.utf8)) }
    }

    /// Three distinct images, fresh for an hour.
    private func makeServer() throws -> PinholeTestServer {
        let server = try PinholeTestServer()
        for (index, name) in ["size-key-source.jpg", "orient-6.jpg", "baseline.jpg"].enumerated() {
            server.route(
                "/img/\(index).jpg",
                Route(
                    headers: ["content-type": "image/jpeg", "cache-control": "max-age=3600"],
                    body: try Data(contentsOf: Fixtures.input(name))))
        }
        return server
    }

    @Test func aSecondRunWithTheSameCacheDirectoryDownloadsAndDecodesNothing() async throws {
        // Given three URLs and a cache directory
        let server = try makeServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let urls = (0..<3).map { server.url("/img/\($0).jpg").absoluteString }
        let arguments =
            ["thumbnail"] + urls + [
                "--width", "60", "--height", "60", "--fill", "--crop", "attention",
                "--cache-dir", "cache", "--out", "out", "--json",
            ]
        // When thumbnailed twice by two processes (the second starts with an empty memory cache)
        let first = try await PinholeBinary.run(arguments, in: directory.path)
        let second = try await PinholeBinary.run(arguments, in: directory.path)
        // Then the first downloaded and decoded each image once, and the second did neither
        #expect(first.status == 0 && second.status == 0, "stderr: \(first.stderr) \(second.stderr)")
        let before = try Report(first.stdout)
        let after = try Report(second.stdout)
        #expect(before.downloads == 3 && before.decodes == 3 && before.thumbnailDiskHits == 0)
        #expect(after.downloads == 0 && after.decodes == 0 && after.thumbnailDiskHits == 3)
        #expect(server.stats.requestsStarted == 3)
        // And every output is exactly the 60×60 box, named after it
        for output in before.outputs + after.outputs {
            #expect(output.width == 60 && output.height == 60)
            #expect(output.output.hasSuffix(".60.60x60-fill-attention.jpg"), "\(output.output)")
        }
        #expect(after.succeeded == 3)
    }

    @Test func offlineAnswersFromTheCacheAndFailsWhatItDoesNotHold() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let cached = server.url("/img/0.jpg").absoluteString
        let other = server.url("/img/1.jpg").absoluteString
        let warm = try await PinholeBinary.run(
            ["thumbnail", cached, "--size", "50", "--cache-dir", "cache", "--out", "out", "--json"], in: directory.path)
        #expect(warm.status == 0)
        // When run offline over a cached URL and an uncached one
        let offline = try await PinholeBinary.run(
            [
                "thumbnail", cached, other, "--size", "50", "--cache-dir", "cache", "--out", "out", "--offline",
                "--json",
            ],
            in: directory.path)
        // Then the cached one is written from disk, the other fails as not cached, and the server saw one request
        let report = try Report(offline.stdout)
        #expect(offline.status == 1)
        #expect(report.succeeded == 1 && report.errors.map(\.kind) == ["not_cached"])
        #expect(report.downloads == 0 && report.decodes == 0)
        #expect(server.stats.requestsStarted == 1)
    }

    @Test func headersAreSentAndScaleMultipliesTheBox() async throws {
        let server = try makeServer()
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        // When a URL is thumbnailed with two headers, a 40×30-point fit box at scale 2
        let result = try await PinholeBinary.run(
            [
                "thumbnail", server.url("/img/0.jpg").absoluteString, "--width", "40", "--height", "30", "--fit",
                "--scale", "2", "--header", "Authorization: Bearer t0k3n", "--header", "X-Trace: 7", "--out", "out",
                "--json",
            ], in: directory.path)
        // Then the server got both headers, and the thumbnail fits 80×60 pixels
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let seen = try #require(server.lastRequest(for: "/img/0.jpg"))
        #expect(seen.headers["authorization"] == "Bearer t0k3n" && seen.headers["x-trace"] == "7")
        let output = try #require(try Report(result.stdout).outputs.first)
        #expect(output.width == 80 && output.height == 60)
    }
}
