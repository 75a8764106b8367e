import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--cache-dir` on a full file system (a 1 MiB tmpfs the test mounts and fills): `pinhole serve` goes on serving
/// without caching, says so once on stderr, leaves no partial file, and serves again once there is room.
@Suite(.timeLimit(scaledMinutes: 3))
struct DiskFullEndToEndTests {
    static let sources = 8

    @Test(.enabled("mounting a tmpfs needs root (CAP_SYS_ADMIN)") { await TmpfsMount.isPermitted })
    func aFullCacheDiskKeepsServingWithOneDiagnosticAndNoPartialFile() async throws {
        let mount = try await TmpfsMount(bytes: 1 << 20)
        do {
            try await serve(on: mount)
        } catch {
            await mount.remove()
            throw error
        }
        await mount.remove()
    }

    private func serve(on mount: TmpfsMount) async throws {
        // Given an origin with 8 sources of distinct colours, fresh for an hour, and a ninth asked for last
        let origin = try PinholeTestServer()
        defer { origin.stop() }
        for index in 0...Self.sources {
            var route = Route.image(try await OriginImages.solid(OriginImages.colour(index), width: 320, height: 240))
            route.headers["cache-control"] = "max-age=3600"
            origin.route("/img/\(index).jpg", route)
        }
        let path: @Sendable (Int) -> String = { index in
            "/_/w:100/plain/\(origin.url("/img/\(index).jpg").absoluteString)"
        }
        // And a server whose disk cache, on the tmpfs, has stored the first one
        let cache = mount.directory.appendingPathComponent("cache")
        let server = try await ServeChild([
            "--allow-unsigned", "--allow-source", origin.baseURL.absoluteString, "--cache-dir", cache.path,
        ])
        defer { server.close() }
        try #require(try await server.get(path(0)).status == 200)
        try #require(try await CacheDirectoryInspection.of(cache).validEntries.count >= 1)
        // When the file system is filled up and the seven other sources are asked for at once
        try await mount.fill()
        let answers = try await withThrowingTaskGroup(of: (Int, ServerHarness.Answer).self) { group in
            for index in 1..<Self.sources {
                group.addTask { (index, try await server.get(path(index))) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then each is served, with its own pixels
        for (index, answer) in answers {
            try #require(answer.status == 200, "\(index): \(String(decoding: answer.body, as: UTF8.self))")
            let decoded = try await ServerHarness.decoded(answer.body)
            #expect(decoded.size == PixelSize(width: 100, height: 75))
            #expect(OriginImages.isSolid(decoded.image, OriginImages.colour(index)), "\(index)")
        }
        // And stderr has one line about the cache, which names the full disk; the server still runs
        let cacheLines = await server.process.stderr().split(separator: "\n").filter { $0.contains("disk cache") }
        #expect(cacheLines.count == 1, "\(cacheLines)")
        #expect(cacheLines.first?.contains("could not store") == true)
        #expect(cacheLines.first?.contains("space") == true, "\(cacheLines)")
        #expect(try await server.get("/health").status == 200)
        // And the cache directory holds no temporary file and no torn entry
        let full = try await CacheDirectoryInspection.of(cache)
        #expect(full.temporaryFiles.isEmpty && full.tornEntries.isEmpty, "\(full)")
        // When there is room again and every source is asked for again
        try FileManager.default.removeItem(at: mount.directory.appendingPathComponent("filler"))
        for index in 0..<Self.sources {
            // Then each is served with its own pixels
            let answer = try await server.get(path(index))
            try #require(answer.status == 200)
            #expect(
                OriginImages.isSolid(try await ServerHarness.decoded(answer.body).image, OriginImages.colour(index)))
        }
        // And once a new source is stored, one more line says so: the report is re-armed for the next full disk
        try #require(try await server.get(path(Self.sources)).status == 200)
        let cacheLinesNow = {
            await server.process.stderr().split(separator: "\n").filter { $0.contains("disk cache") }
        }
        _ = await eventually { await cacheLinesNow().count > 1 }
        let recovered = await cacheLinesNow()
        #expect(recovered.count == 2 && recovered.last?.contains("stores succeed again") == true, "\(recovered)")
        // And the server stops cleanly on SIGTERM
        server.process.kill(SIGTERM)
        #expect(try await server.process.waitForExit() == 0)
        let after = try await CacheDirectoryInspection.of(cache)
        #expect(after.temporaryFiles.isEmpty && after.tornEntries.isEmpty, "\(after)")
    }
}
