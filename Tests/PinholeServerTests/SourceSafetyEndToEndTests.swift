import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import Testing

/// Private-address refusals, limits and bad origins, each answered with the right status and a JSON error that
/// tells nothing about the server.
@Suite(.timeLimit(scaledMinutes: 2))
struct SourceSafetyEndToEndTests {
    @Test(arguments: ["localhost", "127.0.0.2", "[::ffff:127.0.0.1]", "2130706433", "0x7f000001"])
    func aSourceOnALoopbackAddressOutsideTheAllowedPrefixesIs403(host: String) async throws {
        // Given a server that allows only http://127.0.0.1:PORT/ and an origin on that port
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        // When a source names the same origin by another spelling ("localhost" resolves through /etc/hosts)
        let source = ProcessingURLTests.base64("http://\(host):\(harness.origin.port)/p.jpg")
        let answer = try await harness.get(harness.signer.signedPath("/w:50/\(source)"))
        // Then it is refused before any byte reaches the origin, with a message that names no address
        #expect(answer.status == 403)
        #expect(answer.errorCode == "untrusted_source")
        #expect(harness.origin.requestCount(for: "/p.jpg") == 0)
        #expect(!String(decoding: answer.body, as: UTF8.self).contains("127."))
    }

    @Test func aRedirectFromAnAllowedSourceToAPrivateOneIsRefused() async throws {
        // Given an allowed origin whose /r redirects to the same origin spelled "localhost" (not allowed)
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        harness.origin.route("/r", .redirect(to: "http://localhost:\(harness.origin.port)/p.jpg"))
        // When the redirecting source is asked
        let answer = try await harness.get(harness.signedPath("w:50", plain: "/r"))
        // Then the redirect target is refused at connect time
        #expect(answer.status == 403)
        #expect(harness.origin.requestCount(for: "/p.jpg") == 0)
    }

    @Test func aPrefixAdmitsOnlyItsOwnHostPortAndPathSegments() async throws {
        // Given only http://127.0.0.1:PORT/img allowed (and a kept-alive connection to it from /img/p.jpg)
        let harness = try ServerHarness { configuration, origin in
            configuration.allowedSources = [SourcePrefix("http://127.0.0.1:\(origin.port)/img")!]
        }
        defer { Task { await harness.stop() } }
        let image = try await OriginImages.halves()
        harness.origin.route("/img/p.jpg", .image(image))
        harness.origin.route("/imgs/p.jpg", .image(image))
        // Then /img/… is served and /imgs/… (a longer segment) is refused
        #expect(try await harness.get(harness.signedPath("w:50", plain: "/img/p.jpg")).status == 200)
        #expect(try await harness.get(harness.signedPath("w:50", plain: "/imgs/p.jpg")).status == 403)
        #expect(harness.origin.requestCount(for: "/imgs/p.jpg") == 0)
        #expect(
            SourcePrefix("http://cdn.example.com")!.contains(URL(string: "http://cdn.example.com.evil.org/a")!) == false
        )
        #expect(SourcePrefix("ftp://x") == nil)
        // And dot segments never count as under the prefix
        let prefix = SourcePrefix("http://127.0.0.1:80/img")!
        #expect(!prefix.contains(URL(string: "http://127.0.0.1/img/../secret")!))
        #expect(!prefix.contains(URL(string: "http://127.0.0.1/img/%2e%2e/secret")!))
        #expect(prefix.contains(URL(string: "http://127.0.0.1/img/a/b.jpg")!))
    }

    @Test func anOriginThatStallsPastTheDeadlineIs504() async throws {
        // Given a deadline of 1 s and an origin that stops sending after 100 bytes
        let harness = try ServerHarness { configuration, _ in configuration.timeout = .seconds(1) }
        defer { Task { await harness.stop() } }
        let photo = try await OriginImages.halves()
        harness.origin.route(
            "/stall", Route(headers: ["content-type": "image/jpeg"], body: photo, behavior: .stall(afterBytes: 100)))
        // When it is asked
        let answer = try await harness.get(harness.signedPath("w:50", plain: "/stall"))
        // Then the answer is a timeout
        #expect(answer.status == 504)
        #expect(answer.errorCode == "timeout")
    }

    @Test func badOriginsAndLimitsGetTheirStatusAndCode() async throws {
        // Given an origin with every kind of bad answer, and limits of 300,000 pixels and 200,000 bytes
        let harness = try ServerHarness { configuration, _ in
            configuration.maxSourcePixels = 300_000
            configuration.maxSourceBytes = 200_000
        }
        defer { Task { await harness.stop() } }
        let origin = harness.origin
        let photo = try await OriginImages.halves()
        origin.route("/html", .html("<html><body>not an image</body></html>"))
        origin.route("/html-as-jpeg", Route(headers: ["content-type": "image/jpeg"], body: Data("<html></html>".utf8)))
        origin.route(
            "/garbage", Route(headers: ["content-type": "image/jpeg"], body: Data((0..<4000).map { UInt8($0 % 251) })))
        origin.route("/truncated", .image(photo.prefix(photo.count / 2)))
        origin.route("/missing", Route(status: 404))
        origin.route("/broken", Route(status: 500))
        origin.route("/huge", .image(try await OriginImages.halves(width: 800, height: 600)))
        origin.route("/big", .image(Data(count: 300_000) + photo))
        origin.route(
            "/stall", Route(headers: ["content-type": "image/jpeg"], body: photo, behavior: .stall(afterBytes: 100)))
        let cases: [(String, Int, String)] = [
            ("/html", 422, "not_an_image"), ("/html-as-jpeg", 422, "not_an_image"), ("/garbage", 422, "not_an_image"),
            ("/truncated", 422, "truncated"), ("/missing", 404, "http_status"), ("/broken", 502, "http_status"),
            ("/huge", 422, "too_many_pixels"), ("/big", 422, "data_too_large"),
        ]
        for (path, status, code) in cases {
            // When each is asked
            let answer = try await harness.get(harness.signedPath("w:50", plain: path))
            // Then the status and code are the right ones, as JSON that is never cached
            #expect(answer.status == status, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
            #expect(answer.errorCode == code, "\(path)")
            #expect(answer.header("Cache-Control") == "no-store", "\(path)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains(harness.source("")), "\(path)")
        }
        // And a transient failure is not remembered: a fixed origin is asked again (a 404 is kept for a while:
        // CachedFailureEndToEndTests)
        origin.route("/broken", .image(photo))
        #expect(try await harness.get(harness.signedPath("w:50", plain: "/broken")).status == 200)
    }
}
