import Foundation
import Pinhole
import PinholeServer
import PinholeTestServer
import PinholeTestSupport
import Testing

/// Every supported option through the real server, checked on the decoded answer's exact size, format and pixels.
@Suite(.timeLimit(scaledMinutes: 3))
struct ProcessingOptionsEndToEndTests {
    /// (options, extension, expected size) for a 400×300 source.
    @Test(arguments: [
        ("rs:fit:100:100", PixelSize(width: 100, height: 75)),
        ("rs:fill:100:100", PixelSize(width: 100, height: 100)),
        ("rs:fill:120:40", PixelSize(width: 120, height: 40)),
        ("rs:fill-down:600:600", PixelSize(width: 300, height: 300)),
        ("rs:fit:1000:1000", PixelSize(width: 400, height: 300)),
        ("rs:fit:1000:1000:1", PixelSize(width: 1000, height: 750)),
        ("s:80:80", PixelSize(width: 80, height: 60)),
        ("w:200", PixelSize(width: 200, height: 150)),
        ("h:60", PixelSize(width: 80, height: 60)),
        ("rt:fill/w:90/h:90", PixelSize(width: 90, height: 90)),
        ("w:50/dpr:2", PixelSize(width: 100, height: 75)),
        ("rs:fill:64:64/dpr:1.5", PixelSize(width: 96, height: 96)),
        ("q:75", PixelSize(width: 400, height: 300)),
    ])
    func eachOptionGivesTheExactPixelSize(options: String, expected: PixelSize) async throws {
        // Given a 400×300 JPEG at the origin
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        // When it is asked with the options, as JPEG
        let answer = try await harness.get(harness.signedPath(options, plain: "/p.jpg", extension: "jpg"))
        // Then the answer has exactly the expected size
        #expect(answer.status == 200)
        let decoded = try await ServerHarness.decoded(answer.body)
        #expect(decoded.size == expected)
        #expect(decoded.format == .jpeg)
    }

    @Test func formatOptionExtensionAndBase64SourceAllSelectTheOutput() async throws {
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        let base64 = ProcessingURLTests.base64(harness.source("/p.jpg"))
        let cases: [(String, ImageFormat)] = [
            (harness.signedPath("w:40/f:png", plain: "/p.jpg"), .png),
            (harness.signedPath("w:40/format:webp", plain: "/p.jpg"), .webp),
            (harness.signedPath("w:40", plain: "/p.jpg", extension: "avif"), .avif),
            (harness.signer.signedPath("/w:40/\(base64).webp"), .webp),
            (harness.signer.signedPath("/w:40/ext:png/\(base64)"), .png),
        ]
        for (path, format) in cases {
            let answer = try await harness.get(path)
            #expect(answer.status == 200, "\(path)")
            let decoded = try await ServerHarness.decoded(answer.body)
            #expect(decoded.format == format, "\(path)")
            #expect(decoded.size.width == 40, "\(path)")
        }
        // And every size and format shared one download
        #expect(harness.origin.requestCount(for: "/p.jpg") == 1)
    }

    /// A 100×100 fill of the 400×300 halves image is a 100-px window of it scaled to 133×100 (red for x < 66):
    /// west keeps x 0…99 (red up to 66), east 33…132 (blue from 33), the centre 16…115 (red up to 50).
    @Test(arguments: [
        ("we", [5, 30, 60], [70, 95]), ("nowe", [5, 60], [70, 95]), ("ea", [5], [36, 70, 95]),
        ("soea", [5], [36, 95]), ("ce", [5, 45], [55, 95]),
    ])
    func compassGravityKeepsThatSideOfTheImage(gravity: String, redColumns: [Int], blueColumns: [Int]) async throws {
        // Given a 400×300 image, red on the left half and blue on the right
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        // When a 100×100 fill is asked with the gravity
        let answer = try await harness.get(harness.signedPath("rs:fill:100:100/g:\(gravity)", plain: "/p.jpg"))
        // Then the window is where the gravity puts it
        let decoded = try await ServerHarness.decoded(answer.body)
        #expect(decoded.size == PixelSize(width: 100, height: 100))
        for x in redColumns {
            let pixel = decoded.image.pixel(x: x, y: 50)
            #expect(pixel.r > 180 && pixel.b < 80, "x \(x): \(pixel)")
        }
        for x in blueColumns {
            let pixel = decoded.image.pixel(x: x, y: 50)
            #expect(pixel.b > 180 && pixel.r < 80, "x \(x): \(pixel)")
        }
    }

    @Test func aLowerQualityGivesFewerBytes() async throws {
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/p.jpg", .image(try await OriginImages.halves()))
        let low = try await harness.get(harness.signedPath("w:300/q:10", plain: "/p.jpg", extension: "jpg"))
        let high = try await harness.get(harness.signedPath("w:300/q:95", plain: "/p.jpg", extension: "jpg"))
        #expect(low.body.count < high.body.count)
    }

    @Test func aRealPhotoIsShrunkToTheBoxWithItsOrientationApplied() async throws {
        // Given a real photo of the corpus
        let corpus = PhotoCorpus.directory()
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted().first { $0.hasSuffix(".jpg") })
        let bytes = try Data(contentsOf: corpus.appendingPathComponent(name))
        let harness = try ServerHarness()
        defer { Task { await harness.stop() } }
        harness.origin.route("/photo.jpg", .image(bytes))
        // When a 512 px fit is asked
        let answer = try await harness.get(harness.signedPath("rs:fit:512:512", plain: "/photo.jpg", extension: "jpg"))
        // Then the longest side is 512 and the aspect ratio is the photo's as displayed
        let decoded = try await ServerHarness.decoded(answer.body)
        let original = try await ServerHarness.decoded(bytes)
        #expect(max(decoded.size.width, decoded.size.height) == 512)
        let ratio = Double(original.size.width) / Double(original.size.height)
        #expect(abs(Double(decoded.size.width) / Double(decoded.size.height) - ratio) < 0.01)
    }
}
