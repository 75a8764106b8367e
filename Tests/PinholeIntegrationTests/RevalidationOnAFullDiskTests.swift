import Foundation
import Pinhole
import PinholeTestServer
import PinholeTestSupport
import Testing

/// A `304 Not Modified` whose refreshed headers cannot be written (a full disk) is reported once through the
/// pipeline's diagnostics, answers with the stored bytes all the same, and leaves the old entry whole, so that
/// it is revalidated again once there is room. A real tmpfs the test mounts and fills, a real pipeline.
@Suite(.timeLimit(scaledMinutes: 2))
struct RevalidationOnAFullDiskTests {
    @Test(.enabled("mounting a tmpfs needs root (CAP_SYS_ADMIN)") { await TmpfsMount.isPermitted })
    func aRevalidationWhoseEntryCannotBeRewrittenIsReportedAndStillAnswers() async throws {
        let mount = try await TmpfsMount(bytes: 1 << 20)
        do {
            try await revalidate(on: mount)
        } catch {
            await mount.remove()
            throw error
        }
        await mount.remove()
    }

    private func revalidate(on mount: TmpfsMount) async throws {
        // Given a source with a validator that is stale at once, stored in a disk cache on a small tmpfs
        let harness = try Harness(diskDirectory: mount.directory.appendingPathComponent("cache"))
        var route = Route.image(try await Fixture.input("orient-1.jpg"))
        route.etag = "\"v1\""
        route.headers["cache-control"] = "max-age=0"
        harness.server.route("/r.jpg", route)
        let request = harness.request("/r.jpg")
        #expect(try await harness.pipeline.image(for: request).source == .network)
        try #require(await eventually { await harness.pipeline.diskCache()?.count == 1 })
        // When the file system is full and the source is asked for again
        try await mount.fill()
        harness.pipeline.removeAllCachedImages()
        let revalidated = try await harness.pipeline.image(for: request)
        // Then the origin answered 304 and the stored bytes are served
        #expect(harness.server.stats.notModified == 1)
        #expect(revalidated.source == .diskCache)
        // And one diagnostic names the failed update and the lack of space
        let lines = harness.diagnostics.all.filter { $0.contains("disk cache") }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("after a 304") == true, "\(lines)")
        #expect(lines.first?.contains("space") == true, "\(lines)")
        // And the old entry is still there, whole
        let entry = await harness.pipeline.diskCache()?.entry(for: harness.server.url("/r.jpg").absoluteString)
        #expect(entry?.data == (try await Fixture.input("orient-1.jpg")))
        // When there is room again and the source is asked for once more
        try FileManager.default.removeItem(at: mount.directory.appendingPathComponent("filler"))
        harness.pipeline.removeAllCachedImages()
        let again = try await harness.pipeline.image(for: request)
        // Then it is revalidated again, the update is written, and the diagnostics say stores succeed again
        #expect(again.source == .diskCache)
        #expect(harness.server.stats.notModified == 2)
        #expect(harness.diagnostics.all.contains { $0.contains("stores succeed again") }, "\(harness.diagnostics.all)")
    }
}
