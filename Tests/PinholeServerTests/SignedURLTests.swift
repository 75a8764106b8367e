import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import Testing

/// Signed, unsigned and forged URLs against the real server.
@Suite(.timeLimit(scaledMinutes: 2))
struct SignedURLTests {
    @Test func aSignedURLIsServedAndAnUnsignedOrForgedOneIs403() async throws {
        // Given a server with a key and an origin photo
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/a.jpg", .image(try await OriginImages.halves()))
        let path = "/rs:fit:100:100/plain/\(harness.source("/a.jpg"))"
        // When the path is asked signed, with "insecure", and with the signature of another path
        let signed = try await harness.get(harness.signer.signedPath(path))
        let unsigned = try await harness.get("/insecure\(path)")
        let forged = try await harness.get("/\(harness.signer.signature(for: path + "x"))\(path)")
        // Then only the signed one is served; the others are 403 JSON naming the signature
        #expect(signed.status == 200)
        #expect(signed.header("Content-Type") == "image/jpeg")
        for refused in [unsigned, forged] {
            #expect(refused.status == 403)
            #expect(refused.errorCode == "invalid_signature")
            #expect(refused.header("Content-Type") == "application/json")
        }
        // And the refused requests never reached the origin
        #expect(harness.origin.requestCount(for: "/a.jpg") == 1)
    }

    @Test func withAllowUnsignedAnySignatureSegmentIsServed() async throws {
        let harness = try ServerHarness { configuration, _ in
            configuration.allowsUnsigned = true
            configuration.signer = nil
        }
        defer { Task { await harness.stop() } }
        harness.origin.route("/a.jpg", .image(try await OriginImages.halves()))
        let answer = try await harness.get("/insecure/w:50/plain/\(harness.source("/a.jpg"))")
        #expect(answer.status == 200)
        #expect(try await ServerHarness.decoded(answer.body).size == PixelSize(width: 50, height: 38))
    }

    @Test func aSignatureCoversTheSourceSoChangingItIsRefused() async throws {
        // Given a signed URL for /a.jpg
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/b.jpg", .image(try await OriginImages.halves()))
        let signed = harness.signedPath("w:50", plain: "/a.jpg")
        // When its source is swapped for /b.jpg, keeping the signature
        let swapped = signed.replacingOccurrences(of: "/a.jpg", with: "/b.jpg")
        let answer = try await harness.get(swapped)
        // Then it is refused
        #expect(answer.status == 403)
        #expect(harness.origin.requestCount(for: "/b.jpg") == 0)
    }
}
