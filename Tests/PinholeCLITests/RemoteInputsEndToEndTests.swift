import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

/// `pinhole thumbnail` over http(s) URLs and JSON Feeds: the built binary against a loopback server started by
/// the test, so the pipeline's coalescing and caches show in the JSON report.
@Suite(.timeLimit(scaledMinutes: 2))
struct RemoteInputsEndToEndTests {
    /// A server with four distinct images at /img/0.jpg … /img/3.jpg, answering after 150 ms.
    private func makeServer() async throws -> PinholeTestServer {
        let server = try PinholeTestServer()
        let names = ["baseline.jpg", "orient-6.jpg", "small-40x30.png", "size-key-source.jpg"]
        for (index, name) in names.enumerated() {
            let data = try await readData(atPath: Fixtures.input(name).path)
            server.route(
                "/img/\(index).jpg",
                Route(
                    headers: ["content-type": "image/jpeg", "cache-control": "no-cache"],
                    body: data, latency: .milliseconds(150), etag: "v\(index)"))
        }
        return server
    }

    private func feed(_ server: PinholeTestServer, items: Int) throws -> Data {
        let entries = (0..<items).map { index in
            ["id": "\(index)", "title": "Item \(index)", "image": server.url("/img/\(index % 4).jpg").absoluteString]
        }
        let document: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1", "title": "Forty", "items": entries,
        ]
        return try JSONSerialization.data(withJSONObject: document)
    }

    @Test func feedOfFortyItemsWithFourDistinctImagesDownloadsFourTimes() async throws {
        // Given a JSON Feed of 40 items whose images are 4 distinct URLs
        let server = try await makeServer()
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(try feed(server, items: 40), to: "feed.json")
        // When the feed is thumbnailed
        let result = try await PinholeBinary.run(
            ["thumbnail", "--feed", "feed.json", "--size", "48", "--out", "out", "--json"], in: directory.path)
        // Then all 40 thumbnails are written, from 4 downloads; the rest were coalesced or memory hits
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let report = try JSONReport(result.stdout)
        #expect(report.succeeded == 40)
        #expect(report.downloads == 4)
        #expect(server.stats.requestsStarted == 4)
        #expect(report.coalesced + report.memoryHits == 36)
        #expect(directory.listing("out").count == 40)
        #expect(report.outputs[1].width == 48 && report.outputs[1].height == 32)
        await server.shutDown()
    }

    @Test func urlsOnTheCommandLineAreLoadedAndBadOnesReported() async throws {
        // Given two good URLs (one repeated) and one that answers 404
        let server = try await makeServer()
        server.route("/missing.jpg", Route(status: 404, body: Data("gone".utf8)))
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let urls = ["/img/0.jpg", "/img/1.jpg", "/img/0.jpg", "/missing.jpg"].map { server.url($0).absoluteString }
        // When thumbnailed
        let result = try await PinholeBinary.run(
            ["thumbnail"] + urls + ["--size", "64", "--out", "out", "--json"],
            in: directory.path)
        // Then three succeed from two downloads, and the 404 is an http_status error
        #expect(result.status == 1)
        let report = try JSONReport(result.stdout)
        #expect(report.succeeded == 3)
        #expect(report.errors.map(\.kind) == ["http_status"])
        #expect(report.downloads == 3)
        #expect(server.requestCount(for: "/img/0.jpg") == 1)
        await server.shutDown()
    }

    @Test func cacheDirKeepsOriginalsAcrossRunsAndRevalidatesThem() async throws {
        // Given a first run with a disk cache
        let server = try await makeServer()
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let url = server.url("/img/3.jpg").absoluteString
        let first = try await PinholeBinary.run(
            ["thumbnail", url, "--out", "a", "--cache-dir", "cache", "--json"],
            in: directory.path)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        // When a second process asks for the same URL
        let second = try await PinholeBinary.run(
            ["thumbnail", url, "--out", "b", "--cache-dir", "cache", "--json"],
            in: directory.path)
        // Then it revalidates (304) and uses the cached original
        let report = try JSONReport(second.stdout)
        #expect(report.succeeded == 1)
        #expect(report.diskHits == 1)
        #expect(server.stats.notModified == 1)
        await server.shutDown()
    }

    @Test func aFeedThatIsNotJSONIsReportedWithItsKind() async throws {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(Data("<html>not a feed</html>".utf8), to: "feed.json")
        let result = try await PinholeBinary.run(
            ["thumbnail", "--feed", "feed.json", "--out", "out", "--json"],
            in: directory.path)
        #expect(result.status == 1)
        let report = try JSONReport(result.stdout)
        #expect(report.errors.map(\.kind) == ["invalid_json"])
    }
}
