import Foundation
import Pinhole
import PinholeCurl
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import PinholeVips
import Testing

/// Untrusted mode through the real pipeline, the libcurl loader and libvips. The loopback test server is the refusal
/// target: it is exactly what a server-side request forgery aims at, and no test sends a byte elsewhere.
@Suite(.timeLimit(scaledMinutes: 1))
struct UntrustedSourceTests {
    static func untrustedPipeline(
        fileRoot: URL? = nil, configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) -> ImagePipeline {
        let loader = HTTPDataLoader(configuration: Harness.fastLoader())
        var configuration = ImagePipeline.Configuration(
            decoder: VipsDecoder(), dataLoader: SchemeRoutingDataLoader(http: loader))
        configuration.sourcePolicy = .untrusted(allowedFileRoot: fileRoot)
        configure(&configuration)
        return ImagePipeline(configuration: configuration)
    }

    /// The server's own URL and other spellings of its loopback address, all on its port.
    @Test(arguments: [
        "127.0.0.1", "localhost", "2130706433", "0x7f000001", "0177.0.0.1", "127.1", "[::ffff:127.0.0.1]",
        "[::ffff:7f00:1]",
    ])
    func loopbackInAnySpellingIsRefusedBeforeAnyByteIsSent(_ host: String) async throws {
        // Given a healthy image route on the loopback server
        let server = try PinholeTestServer()
        server.route("/a.jpg", .image(try await Fixture.input("orient-1.jpg")))
        let url = try #require(URL(string: "http://\(host):\(server.port)/a.jpg"))
        // When an untrusted pipeline loads it
        let pipeline = Self.untrustedPipeline()
        let error = await #expect(throws: PinholeError.self) { try await pipeline.image(for: ImageRequest(url: url)) }
        // Then it is refused as untrusted and the server never saw a connection
        #expect(error?.code == .untrustedSource, "\(String(describing: error))")
        #expect(server.stats.connectionsAccepted == 0)
        #expect(pipeline.activeImageJobCount == 0)
    }

    @Test func theSameURLLoadsUnderTheTrustedDefault() async throws {
        let harness = try Harness()
        harness.server.route("/a.jpg", .image(try await Fixture.input("orient-1.jpg")))
        let response = try await harness.pipeline.image(for: harness.request("/a.jpg"))
        #expect(response.source == .network)
    }

    @Test func filesLoadOnlyUnderTheAllowedRoot() async throws {
        // Given the fixture inputs as the root, and a symlink inside a temporary root pointing out of it
        let inputs = Fixture.cases.appendingPathComponent("inputs")
        let pipeline = Self.untrustedPipeline(fileRoot: inputs)
        let request = ImageRequest(
            url: inputs.appendingPathComponent("orient-1.jpg"), thumbnail: ThumbnailOptions(maxPixelSize: 32))
        let inside = try await pipeline.image(for: request)
        #expect(inside.source == .file)
        #expect(max(inside.image.width, inside.image.height) == 32)

        let rootDirectory = try TemporaryDirectory(prefix: "pinhole-it")
        defer { rootDirectory.remove() }
        let root = rootDirectory.url
        let escape = root.appendingPathComponent("escape.jpg")
        let target = inputs.appendingPathComponent("orient-1.jpg")
        try FileManager.default.createSymbolicLink(at: escape, withDestinationURL: target)
        let confined = Self.untrustedPipeline(fileRoot: root)
        for url in [escape, URL(fileURLWithPath: root.path + "/../x.jpg"), target] {
            let error = await #expect(throws: PinholeError.self) {
                try await confined.image(for: ImageRequest(url: url))
            }
            #expect(error?.code == .untrustedSource, "\(url.path): \(String(describing: error))")
        }
    }

    @Test func limitsStayOnInUntrustedMode() async throws {
        // Given limits switched off in the configuration
        let pipeline = Self.untrustedPipeline(fileRoot: Fixture.cases.appendingPathComponent("inputs")) {
            $0.maxPixelCount = .max
            $0.maxFrameCount = .max
        }
        // Then they are clamped, and the 50000×50000 PNG bomb is refused by its header
        #expect(pipeline.configuration.maxPixelCount == SourcePolicy.untrustedMaxPixelCount)
        #expect(pipeline.configuration.maxFrameCount == SourcePolicy.untrustedMaxFrameCount)
        let bomb = Fixture.cases.appendingPathComponent("inputs/bomb-png-50000x50000.png")
        let error = await #expect(throws: PinholeError.self) { try await pipeline.image(for: ImageRequest(url: bomb)) }
        #expect(error?.code == .tooManyPixels)
    }
}
