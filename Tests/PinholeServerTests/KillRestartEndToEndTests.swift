import Foundation
import Pinhole
import PinholeServer
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `kill -9` of `pinhole serve` while it writes its disk cache: the restarted server on the same `--cache-dir`
/// starts, finds no torn entry (entries are written to a temporary file and renamed), and serves every URL.
@Suite(.timeLimit(scaledMinutes: 3))
struct KillRestartEndToEndTests {
    static let sources = 12
    static let widths = [100, 60]

    @Test func aServerKilledDuringLoadRestartsOnItsCacheWithNoTornEntryAndServesEverything() async throws {
        // Given an origin with 12 sources of distinct colours, answered 150 ms apart, fresh for an hour
        let origin = try PinholeTestServer()
        defer { origin.stop() }
        var images: [Data] = []
        for index in 0..<Self.sources {
            images.append(try await OriginImages.solid(OriginImages.colour(index), width: 320, height: 240))
            var route = Route.image(images[index], latency: .milliseconds(150 * index))
            route.headers["cache-control"] = "max-age=3600"
            origin.route("/img/\(index).jpg", route)
        }
        let temporary = try TemporaryDirectory(prefix: "kill")
        defer { temporary.remove() }
        let directory = temporary.url
        let arguments = [
            "--allow-unsigned", "--allow-source", origin.baseURL.absoluteString, "--cache-dir", directory.path,
            "--timeout", "600",
        ]
        let paths = (0..<Self.sources).flatMap { index in
            Self.widths.map { "/_/w:\($0)/plain/\(origin.url("/img/\(index).jpg").absoluteString)" }
        }
        let first = try await ServeChild(arguments)
        defer { first.close() }
        // When 24 requests (12 sources × 2 sizes) are in flight and the server is SIGKILLed once a few entries
        // are on disk
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for path in paths {
                group.addTask { (try? await first.get(path).status) ?? -1 }
            }
            try #require(
                await eventually(timeout: .seconds(30), every: .milliseconds(20)) {
                    await CacheDirectoryInspection.entryCount(in: directory) >= 4
                })
            first.process.kill(SIGKILL)
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(try await first.process.waitForExit() == 128 + SIGKILL)
        try #require(statuses.contains { $0 != 200 }, "every request was done before the kill: \(statuses)")
        for index in 0..<Self.sources {  // no more latency for the restarted server
            var route = Route.image(images[index])
            route.headers["cache-control"] = "max-age=3600"
            origin.route("/img/\(index).jpg", route)
        }
        // Then the directory holds no torn entry
        let afterKill = try await CacheDirectoryInspection.of(directory)
        #expect(afterKill.tornEntries.isEmpty, "\(afterKill)")
        // And a server restarted on it starts and answers every URL with its image at its size
        let second = try await ServeChild(arguments)
        defer { second.close() }
        for (offset, path) in paths.enumerated() {
            let answer = try await second.get(path)
            try #require(answer.status == 200, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
            let decoded = try await ServerHarness.decoded(answer.body)
            let width = Self.widths[offset % Self.widths.count]
            #expect(decoded.size == PixelSize(width: width, height: width * 3 / 4), "\(path)")
            #expect(OriginImages.isSolid(decoded.image, OriginImages.colour(offset / Self.widths.count)), "\(path)")
        }
        // And its cache left no temporary file of the killed writer behind, nor a torn entry
        let afterRestart = try await CacheDirectoryInspection.of(directory)
        #expect(afterRestart.temporaryFiles.isEmpty && afterRestart.tornEntries.isEmpty, "\(afterRestart)")
        #expect(afterRestart.validEntries.count >= afterKill.validEntries.count)
        second.process.kill(SIGTERM)
        #expect(try await second.process.waitForExit() == 0)
    }
}
