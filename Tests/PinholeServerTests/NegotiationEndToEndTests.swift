import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import Testing

/// `Accept` negotiation, `Vary`, and one cached answer per negotiated format.
@Suite(.timeLimit(scaledMinutes: 2))
struct NegotiationEndToEndTests {
    @Test func theFormatFollowsAcceptAndTheAnswerVariesOnIt() async throws {
        // Given an opaque JPEG source and a URL without a format
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        let path = harness.signedPath("w:100", plain: "/p.jpg")
        // When browsers with different Accept headers ask for it, twice each
        let chrome = try await harness.get(path, headers: ["Accept": "image/avif,image/webp,*/*;q=0.8"])
        let avifOnly = try await harness.get(path, headers: ["Accept": "image/avif,*/*;q=0.5"])
        let old = try await harness.get(path, headers: ["Accept": "*/*"])
        let chromeAgain = try await harness.get(path, headers: ["Accept": "image/webp,image/avif,*/*;q=0.8"])
        // Then each gets its format, every answer says Vary: Accept, and the same choice is the same bytes
        #expect(try await ServerHarness.decoded(chrome.body).format == .webp)
        #expect(try await ServerHarness.decoded(avifOnly.body).format == .avif)
        #expect(try await ServerHarness.decoded(old.body).format == .jpeg)
        #expect(chrome.header("Content-Type") == "image/webp")
        #expect(avifOnly.header("Content-Type") == "image/avif")
        for answer in [chrome, avifOnly, old] { #expect(answer.header("Vary") == "Accept") }
        #expect(chromeAgain.body == chrome.body)
        #expect(chromeAgain.header("ETag") == chrome.header("ETag"))
        #expect(chrome.header("ETag") != old.header("ETag"))
        // And one download served every format
        #expect(harness.origin.requestCount(for: "/p.jpg") == 1)
    }

    @Test func anExplicitFormatIgnoresAcceptAndDoesNotVary() async throws {
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        let answer = try await harness.get(
            harness.signedPath("w:100", plain: "/p.jpg", extension: "png"), headers: ["Accept": "image/webp"])
        #expect(try await ServerHarness.decoded(answer.body).format == .png)
        #expect(answer.header("Vary") == nil)
    }

    @Test func anImageWithAlphaIsNeverSentAsJPEG() async throws {
        // Given a PNG with transparent pixels and a client that names only JPEG
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/a.png", .image(try await OriginImages.withAlpha(), contentType: "image/png"))
        let answer = try await harness.get(
            harness.signedPath("w:100", plain: "/a.png"), headers: ["Accept": "image/jpeg"])
        // Then it gets PNG, transparency kept
        let decoded = try await ServerHarness.decoded(answer.body)
        #expect(decoded.format == .png)
        #expect(decoded.image.pixel(x: 90, y: 25).a == 0)
        #expect(decoded.image.pixel(x: 10, y: 25).a == 255)
    }

    @Test func alphaAskedAsJPEGIsFlattenedOnWhiteNotBlack() async throws {
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/a.png", .image(try await OriginImages.withAlpha(), contentType: "image/png"))
        let answer = try await harness.get(harness.signedPath("w:100", plain: "/a.png", extension: "jpg"))
        let decoded = try await ServerHarness.decoded(answer.body)
        #expect(decoded.format == .jpeg)
        let transparent = decoded.image.pixel(x: 90, y: 25)
        #expect(transparent.r > 240 && transparent.g > 240 && transparent.b > 240, "\(transparent)")
    }
}
