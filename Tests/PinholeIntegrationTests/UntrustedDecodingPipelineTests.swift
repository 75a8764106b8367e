import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// The pipeline's source policy reaches the decoder: under ``SourcePolicy/untrusted(allowedFileRoot:)`` files are
/// decoded only as the allowed formats (``ImagePipeline/Configuration/untrustedFormats``), trusted pipelines are
/// unchanged.
@Suite(.timeLimit(scaledMinutes: 1))
struct UntrustedDecodingPipelineTests {
    static let inputs = Fixture.cases.appendingPathComponent("inputs")

    static func pipeline(untrusted: Bool, formats: Set<ImageFormat>? = nil) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(decoder: VipsDecoder())
        if untrusted { configuration.sourcePolicy = .untrusted(allowedFileRoot: inputs) }
        if let formats { configuration.untrustedFormats = formats }
        configuration.memoryCache = nil
        return ImagePipeline(configuration: configuration)
    }

    @Test func anUntrustedPipelineRefusesABMPAndATrustedOneDecodesIt() async throws {
        // Given a BMP inside the allowed root (libvips reads BMP with ImageMagick)
        let request = ImageRequest(url: Self.inputs.appendingPathComponent("bmp24.bmp"), maxPixelSize: 32)

        // When an untrusted pipeline loads it, Then the decoder refuses its format, saying so
        let error = await #expect(throws: PinholeError.self) {
            _ = try await Self.pipeline(untrusted: true).image(for: request)
        }
        #expect(error?.code == .unsupportedFormat, "\(String(describing: error))")
        #expect(error?.detectedType == "bmp")

        // And a trusted pipeline decodes the same file
        let image = try await Self.pipeline(untrusted: false).image(for: request)
        #expect(max(image.image.width, image.image.height) == 32)
    }

    @Test func anUntrustedPipelineDecodesSVGOnlyWhenAskedFor() async throws {
        // Given an SVG inside the allowed root
        let request = ImageRequest(url: Self.inputs.appendingPathComponent("svg-basic.svg"), maxPixelSize: 32)

        // When the untrusted pipeline keeps the default formats, Then it is refused
        let error = await #expect(throws: PinholeError.self) {
            _ = try await Self.pipeline(untrusted: true).image(for: request)
        }
        #expect(error?.code == .unsupportedFormat, "\(String(describing: error))")

        // When the configuration adds SVG, Then it is rendered
        let formats = ImageFormat.untrustedDefault.union([.svg])
        let image = try await Self.pipeline(untrusted: true, formats: formats).image(for: request)
        #expect(image.info.format == .svg)
    }
}
