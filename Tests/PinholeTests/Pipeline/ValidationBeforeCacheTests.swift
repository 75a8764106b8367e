import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import Pinhole

/// A request is validated before any cache answers it: a pipeline with an untrusted source policy that shares
/// its memory cache with a trusted one never serves a refused URL from that cache.
@Suite(.timeLimit(scaledMinutes: 1))
struct ValidationBeforeCacheTests {
    /// Names with fixed answers (no DNS is asked).
    struct FakeResolver: HostResolving {
        func resolve(_ host: String) throws -> [IPAddress] {
            switch host {
            case "intranet.example": [IPAddress("10.0.0.5")].compactMap { $0 }
            case "photos.example": [IPAddress("93.184.216.34")].compactMap { $0 }
            default: throw PinholeError(.networkFailure, "cannot resolve \(host)")
            }
        }
    }

    /// A trusted and an untrusted pipeline over one memory cache, one loader and one decoder.
    struct Pair {
        let trusted: ImagePipeline
        let untrusted: ImagePipeline
        let loader = VersionedLoader()

        init() {
            let memory = MemoryCache<ImageKey, DecodedImage>()
            var configuration = ImagePipeline.Configuration(decoder: PayloadDecoder(), dataLoader: loader)
            configuration.memoryCache = memory
            configuration.hostResolver = FakeResolver()
            trusted = ImagePipeline(configuration: configuration)
            configuration.sourcePolicy = .untrusted(allowedFileRoot: nil)
            untrusted = ImagePipeline(configuration: configuration)
        }
    }

    @Test(arguments: ["http://127.0.0.1/a.jpg", "http://[::1]/b.jpg", "http://intranet.example/c.jpg"])
    func aRefusedURLIsNeverAnsweredFromASharedMemoryCache(_ text: String) async throws {
        // Given an image the trusted pipeline loaded into the shared memory cache
        let pair = Pair()
        let request = ImageRequest(url: try #require(URL(string: text)), maxPixelSize: 64)
        _ = try await pair.trusted.image(for: request)
        try #require(pair.trusted.cachedImage(for: request) != nil)
        // When the untrusted pipeline is asked for it
        let error = await #expect(throws: PinholeError.self) { try await pair.untrusted.image(for: request) }
        // Then it is refused before any cache answers, synchronously too, and nothing was loaded again
        #expect(error?.code == .untrustedSource)
        #expect(pair.untrusted.cachedImage(for: request) == nil)
        #expect(pair.untrusted.metrics.memoryHits == 0)
        #expect(pair.loader.totalLoads == 1)
    }

    @Test func anAllowedURLIsStillAnsweredFromTheSharedMemoryCache() async throws {
        // Given images of public hosts (an address literal, and a name that resolves to a public address)
        let pair = Pair()
        let literal = ImageRequest(url: URL(string: "http://93.184.216.34/a.jpg")!, maxPixelSize: 64)
        let named = ImageRequest(url: URL(string: "http://photos.example/b.jpg")!, maxPixelSize: 64)
        _ = try await pair.trusted.image(for: literal)
        _ = try await pair.trusted.image(for: named)
        // Then the untrusted pipeline answers both from memory after checking them; synchronously only the literal
        // (a name needs DNS, which a synchronous lookup must not wait for)
        #expect(try await pair.untrusted.image(for: literal).source == .memoryCache)
        #expect(try await pair.untrusted.image(for: named).source == .memoryCache)
        #expect(pair.untrusted.cachedImage(for: literal) != nil)
        #expect(pair.untrusted.cachedImage(for: named) == nil)
        #expect(pair.loader.totalLoads == 2)
    }

    @Test func anUnsupportedSchemeIsRefusedEvenWhenTheMemoryCacheHasItsKey() async throws {
        // Given a memory cache that holds an image under an ftp URL's key (put there by someone else)
        let pair = Pair()
        let request = ImageRequest(url: URL(string: "ftp://files.example/a.jpg")!, maxPixelSize: 64)
        let image = PixelImage(width: 1, height: 1, pixelFormat: .gray8, pixels: [0])
        pair.trusted.configuration.memoryCache?.insert(
            DecodedImage(image: image, info: .init(format: .png, width: 1, height: 1)), for: request.imageKey, cost: 1)
        // When it is asked for, Then it fails as an invalid request
        let error = await #expect(throws: PinholeError.self) { try await pair.trusted.image(for: request) }
        #expect(error?.code == .invalidRequest)
    }
}
