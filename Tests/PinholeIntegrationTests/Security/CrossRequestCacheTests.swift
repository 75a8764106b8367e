import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Testing

/// Private images across users, and one request's answer given to another, at every cache layer: the memory
/// cache, stored originals and stored (encoded) thumbnails. The loopback server answers each user with an image of
/// their own colour, so a test sees whose image it got.
@Suite(.timeLimit(scaledMinutes: 2))
struct CrossRequestCacheTests {
    /// libvips, a disk cache in `directory` keeping originals and thumbnails.
    static func pipeline(directory: URL) -> ImagePipeline {
        RequestAPIIntegrationTests.pipeline(directory: directory, policy: .storeAll)
    }

    /// A 64×48 JPEG of one colour.
    static func jpeg(_ rgb: (UInt8, UInt8, UInt8)) async throws -> Data {
        let pixels = (0..<(64 * 48)).flatMap { _ in [rgb.0, rgb.1, rgb.2] }
        let image = PixelImage(width: 64, height: 48, pixelFormat: .rgb8, pixels: pixels)
        return try await VipsEncoder().encode(image, options: EncodingOptions(format: .jpeg, quality: 95))
    }

    static func colour(_ response: ImageResponse) -> (Int, Int, Int) {
        let p = response.image.pixel(x: response.image.width / 2, y: response.image.height / 2)
        return (Int(p.r), Int(p.g), Int(p.b))
    }

    static func isRed(_ response: ImageResponse) -> Bool { colour(response).0 > 200 && colour(response).2 < 60 }
    static func isBlue(_ response: ImageResponse) -> Bool { colour(response).2 > 200 && colour(response).0 < 60 }

    @Test(arguments: [nil, "X-User"])
    func aUserHeaderKeepsEachUsersImageAtEveryLayer(vary: String?) async throws {
        // Given /me.jpg, answered to alice (X-Api-Key: alice) with a red image, fresh for an hour (with or
        // without Vary naming the header), and alice's image loaded: memory, original and thumbnail all stored
        let server = try PinholeTestServer()
        defer { server.stop() }
        var headers = ["content-type": "image/jpeg", "cache-control": "max-age=3600"]
        if let vary { headers["vary"] = vary }
        server.route("/me.jpg", Route(headers: headers, body: try await Self.jpeg((230, 20, 20))))
        let temporary = try TemporaryDirectory(prefix: "pinhole-it")
        defer { temporary.remove() }
        let directory = temporary.url
        let pipeline = Self.pipeline(directory: directory)
        func request(_ user: String) -> ImageRequest {
            ImageRequest(
                url: server.url("/me.jpg"), thumbnail: ThumbnailOptions(maxPixelSize: 32),
                headers: [vary ?? "X-Api-Key": user])
        }
        let alice = try await pipeline.image(for: request("alice"))
        #expect(Self.isRed(alice))
        // When the server now answers blue (bob's image) and bob asks, in this process and after a restart
        server.route("/me.jpg", Route(headers: headers, body: try await Self.jpeg((20, 20, 230))))
        let bob = try await pipeline.image(for: request("bob"))
        let bobAfterRestart = try await Self.pipeline(directory: directory).image(for: request("bob"))
        // Then bob got his own image from the server both times, never alice's from memory or disk
        #expect(Self.isBlue(bob), "\(Self.colour(bob)) from \(bob.source)")
        #expect(Self.isBlue(bobAfterRestart), "\(Self.colour(bobAfterRestart)) from \(bobAfterRestart.source)")
        #expect(server.requestCount(for: "/me.jpg") == 2)
        // And alice still gets hers, from memory and (after a restart) from disk
        let aliceAgain = try await pipeline.image(for: request("alice"))
        let aliceCold = try await Self.pipeline(directory: directory).image(for: request("alice"))
        #expect(Self.isRed(aliceAgain) && aliceAgain.source == .memoryCache)
        #expect(Self.isRed(aliceCold) && aliceCold.source == .diskCache)
    }

    @Test func aStoredResponseAnswersOnlyTheHeadersItsVaryNamed() {
        // Given metadata stored for Accept: image/webp under Vary: Accept, User-Agent
        let stored = DiskCache.Metadata().varying(
            "Accept, user-agent", requestHeaders: ["accept": "image/webp", "X-Other": "1"])
        // Then it answers the same values (any case, other headers free), and not another value or an absent one
        #expect(stored.matches(requestHeaders: ["ACCEPT": "image/webp", "X-Other": "2"]))
        #expect(!stored.matches(requestHeaders: ["Accept": "image/png"]))
        #expect(!stored.matches(requestHeaders: [:]))
        #expect(!stored.matches(requestHeaders: ["Accept": "image/webp", "User-Agent": "other"]))
        // And without Vary anything matches; Vary: * matches nothing
        #expect(DiskCache.Metadata().matches(requestHeaders: ["Accept": "x"]))
        #expect(!DiskCache.Metadata().varying("*", requestHeaders: [:]).matches(requestHeaders: [:]))
    }
}
