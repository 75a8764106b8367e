import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Testing

/// Cache poisoning by undecodable or partial bytes: nothing reaches the disk cache that has not decoded, and an
/// entry that does not decode is removed and fetched again instead of failing every later request.
@Suite(.timeLimit(scaledMinutes: 2))
struct DiskPoisoningTests {
    static func pipeline(directory: URL) -> ImagePipeline {
        RequestAPIIntegrationTests.pipeline(directory: directory, policy: .storeOriginalData)
    }

    /// A real JPEG cut to its first half: a valid header, sniffed as JPEG, that does not decode.
    static func truncatedJPEG() async throws -> Data {
        let whole = try await Fixture.input("size-key-source.jpg")
        return whole.prefix(whole.count / 2)
    }

    @Test func theDiskPrefetchStoresNothingThatDoesNotDecode() async throws {
        // Given a server whose /cut.jpg is half a JPEG (a 200 with the bytes a proxy cut short), fresh for an hour
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route(
            "/cut.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "max-age=3600"],
                body: try await Self.truncatedJPEG()))
        let temporary = try TemporaryDirectory(prefix: "pinhole-it")
        defer { temporary.remove() }
        let directory = temporary.url
        let pipeline = Self.pipeline(directory: directory)
        // When its bytes are fetched for the disk (what the disk prefetcher does)
        let result = await Result { try await pipeline.data(for: ImageRequest(url: server.url("/cut.jpg"))) }
        // Then the call fails as undecodable and the disk cache holds nothing
        guard case .failure(let error) = result else {
            Issue.record("stored: \(result)")
            return
        }
        #expect([.truncated, .decodingFailed].contains((error as? PinholeError)?.code), "\(error)")
        #expect(await pipeline.diskCache()?.count == 0)
        // And a whole JPEG is fetched and stored as before
        server.route(
            "/whole.jpg",
            Route(
                headers: ["content-type": "image/jpeg", "cache-control": "max-age=3600"],
                body: try await Fixture.input("size-key-source.jpg")))
        _ = try await pipeline.data(for: ImageRequest(url: server.url("/whole.jpg")))
        #expect(await pipeline.diskCache()?.count == 1)
    }

    @Test func aFreshEntryThatDoesNotDecodeIsRemovedAndFetchedAgain() async throws {
        // Given a fresh disk entry for /photo.jpg holding half a JPEG (written by an older build, or a bad disk)
        let server = try PinholeTestServer()
        defer { server.stop() }
        server.route("/photo.jpg", .image(try await Fixture.input("size-key-source.jpg")))
        let temporary = try TemporaryDirectory(prefix: "pinhole-it")
        defer { temporary.remove() }
        let directory = temporary.url
        let request = ImageRequest(url: server.url("/photo.jpg"), thumbnail: ThumbnailOptions(maxPixelSize: 100))
        let seeding = Self.pipeline(directory: directory)
        let disk = try #require(await seeding.diskCache())
        try await disk.store(
            try await Self.truncatedJPEG(), metadata: DiskCache.Metadata(expiresAt: Date().addingTimeInterval(3600)),
            for: request.sourceKey)
        // When a new pipeline on that directory asks for the image
        let pipeline = Self.pipeline(directory: directory)
        let response = try await pipeline.image(for: request)
        // Then it got the image from the server (one request), and the disk now holds the good bytes
        #expect(response.source == .network && response.image.width == 100)
        #expect(server.requestCount(for: "/photo.jpg") == 1)
        let stored = try #require(await pipeline.diskCache()?.entry(for: request.sourceKey))
        #expect(stored.data == (try await Fixture.input("size-key-source.jpg")))
        // And offline, a bad entry fails without being kept
        try await disk.store(
            try await Self.truncatedJPEG(), metadata: DiskCache.Metadata(expiresAt: Date().addingTimeInterval(3600)),
            for: request.sourceKey)
        var offline = request
        offline.options = [.returnCacheDataDontLoad]
        let failed = await Result { try await Self.pipeline(directory: directory).image(for: offline) }
        guard case .failure = failed else {
            Issue.record("served a bad entry: \(failed)")
            return
        }
        #expect(await Self.pipeline(directory: directory).diskCache()?.entry(for: request.sourceKey) == nil)
    }
}
