import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import Testing

/// The URLs a list screen builds for the server: parsed back, signed, and served at the exact box.
@Suite(.timeLimit(scaledMinutes: 2))
struct ProcessingURLBuilderTests {
    @Test func aBuiltURLParsesBackToTheSameBoxAndSourceAndIsSigned() throws {
        // Given a builder with the harness's key and a source with a query and spaces
        let signer = try URLSigner(keyHex: ServerHarness.keyHex, saltHex: ServerHarness.saltHex)
        let builder = ProcessingURLBuilder(base: URL(string: "http://thumbs.example:8080/")!, signer: signer)
        let source = URL(string: "https://cdn.example.com/a%20b.jpg?v=2&size=large")!
        let box = ThumbnailOptions(size: PixelSize(width: 180, height: 120), contentMode: .fill(crop: .attention))
        // When its URL is built and its path parsed
        let url = try #require(builder.url(source: source, thumbnail: box))
        #expect(url.absoluteString.hasPrefix("http://thumbs.example:8080/"))
        let parsed = try ProcessingURL.parse(Substring(url.path(percentEncoded: true)))
        // Then the source, box and format are what was asked, and the signature verifies
        #expect(parsed.source == source)
        #expect(parsed.options.thumbnail == box)
        #expect(parsed.options.format == .webp)
        #expect(signer.isValid(signature: parsed.signature, for: parsed.signedPath))
    }

    @Test func anAspectFillOrEntropyBoxHasNoURL() {
        let builder = ProcessingURLBuilder(base: URL(string: "http://t")!, signer: nil)
        let source = URL(string: "http://e.com/a.jpg")!
        #expect(
            builder.url(
                source: source,
                thumbnail: ThumbnailOptions(size: PixelSize(width: 9, height: 9), contentMode: .aspectFill)) == nil)
        #expect(
            builder.url(
                source: source,
                thumbnail: ThumbnailOptions(size: PixelSize(width: 9, height: 9), contentMode: .fill(crop: .entropy)))
                == nil)
        #expect(
            builder.url(source: source, thumbnail: ThumbnailOptions(maxPixelSize: 9))?.path.hasPrefix("/insecure/")
                == true)
    }

    @Test(arguments: [
        (ThumbnailOptions(size: PixelSize(width: 140, height: 140)), PixelSize(width: 140, height: 105)),
        (
            ThumbnailOptions(size: PixelSize(width: 190, height: 200), contentMode: .fill(crop: .centre)),
            PixelSize(width: 190, height: 200)
        ),
    ])
    func theServerAnswersABuiltURLAtExactlyTheBox(box: ThumbnailOptions, expected: PixelSize) async throws {
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        let builder = ProcessingURLBuilder(
            base: URL(string: "http://127.0.0.1:\(harness.daemon.port)")!, signer: harness.signer)
        let url = try #require(builder.url(source: harness.origin.url("/p.jpg"), thumbnail: box))
        let answer = try await harness.get(url.path(percentEncoded: true))
        #expect(answer.status == 200)
        let decoded = try await ServerHarness.decoded(answer.body)
        #expect(decoded.size == expected)
        #expect(decoded.format == .webp)
    }
}
