import Foundation
import Pinhole
import PinholeServer
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

/// Validators and 304s, coalescing counted at the origin, and work done once across sizes.
@Suite(.timeLimit(scaledMinutes: 2))
struct CachingEndToEndTests {
    @Test func aMatchingIfNoneMatchOrIfModifiedSinceIsAnswered304WithoutABody() async throws {
        // Given an answer with its validators
        let harness = try ServerHarness { configuration, _ in configuration.maxAge = 600 }
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        let path = harness.signedPath("w:100", plain: "/p.jpg", extension: "jpg")
        let first = try await harness.get(path)
        let etag = try #require(first.header("ETag"))
        let lastModified = try #require(first.header("Last-Modified"))
        #expect(first.header("Cache-Control") == "public, max-age=600")
        // When it is asked again with each validator, and with a tag that does not match
        let byTag = try await harness.get(path, headers: ["If-None-Match": "\"other\", \(etag)"])
        let byWeakTag = try await harness.get(path, headers: ["If-None-Match": "W/\(etag)"])
        let byDate = try await harness.get(path, headers: ["If-Modified-Since": lastModified])
        let changed = try await harness.get(path, headers: ["If-None-Match": "\"other\""])
        let tagWins = try await harness.get(
            path, headers: ["If-None-Match": "\"other\"", "If-Modified-Since": lastModified])
        // Then the matching ones are 304 with no body and the same tag; the others are the image
        for answer in [byTag, byWeakTag, byDate] {
            #expect(answer.status == 304)
            #expect(answer.body.isEmpty)
            #expect(answer.header("ETag") == etag)
        }
        #expect(changed.status == 200)
        #expect(changed.body == first.body)
        #expect(tagWins.status == 200)
    }

    @Test func identicalRequestsAndEverySizeOfOneSourceCauseOneOriginRequest() async throws {
        // Given a source the origin answers after 2 s (time for all 11 to reach the job on a loaded machine)
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/slow.jpg", .image(try await OriginImages.halves(), latency: .seconds(2)))
        // When 8 identical requests and 3 other sizes arrive at once
        let paths =
            Array(repeating: harness.signedPath("w:100", plain: "/slow.jpg"), count: 8)
            + ["w:50", "w:150", "rs:fill:60:60"].map { harness.signedPath($0, plain: "/slow.jpg") }
        let answers = try await withThrowingTaskGroup(of: (String, Int, Int).self) { group in
            for path in paths {
                group.addTask {
                    let answer = try await harness.get(path)
                    return (path, answer.status, try await ServerHarness.decoded(answer.body).size.width)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then all are served with their own sizes, and the origin saw one request
        #expect(answers.allSatisfy { $0.1 == 200 })
        #expect(Set(answers.map(\.2)) == [100, 50, 150, 60])
        #expect(harness.origin.requestCount(for: "/slow.jpg") == 1)
        // And the identical ones were joined, not made again, and the access log says so
        #expect(harness.server.service.encodes == 4)
        #expect(await eventually { harness.log.lines.count == 11 })
        let from = harness.log.lines.map { line in
            ["network", "coalesced", "memory"].first { line.contains("\"from\":\"\($0)\"") }
        }
        #expect(from.filter { $0 == "network" }.count == 4)
        #expect(from.filter { $0 == "coalesced" }.count >= 1)
        #expect(from.filter { $0 == "coalesced" || $0 == "memory" }.count == 7)
    }

    @Test func aRestartedServerServesFromItsDiskCacheWithoutTheOrigin() async throws {
        // Given a server with a disk cache that has served a thumbnail (origin says fresh for an hour)
        let temporary = try TemporaryDirectory(prefix: "serve")
        defer { temporary.remove() }
        let directory = temporary.url
        let first = try ServerHarness { configuration, _ in configuration.cacheDirectory = directory }
        var route = Route.image(try await OriginImages.halves())
        route.headers["cache-control"] = "max-age=3600"
        first.origin.route("/p.jpg", route)
        let path = first.signedPath("w:100", plain: "/p.jpg", extension: "jpg")
        #expect(try await first.get(path).status == 200)
        let originURL = first.source("/p.jpg")
        await first.stop()
        // When a new server on the same directory is asked for it (the origin is gone)
        let second = try ServerHarness { configuration, _ in configuration.cacheDirectory = directory }
        defer { Task { await second.stop() } }
        let answer = try await second.get(second.signer.signedPath("/w:100/plain/\(originURL)@jpg"))
        // Then it is served from disk
        #expect(answer.status == 200)
        #expect(try await ServerHarness.decoded(answer.body).size == PixelSize(width: 100, height: 75))
    }
}
