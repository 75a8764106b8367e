import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// Bytes after a complete image are not truncation, in any format: padding to a page, an upload tool's text, the
/// video of a phone's "motion photo", random bytes. The decode is the same as without them.
///
/// SVG is the one exception: XML forbids content after the root element, so text after `</svg>` is a parse
/// error (``PinholeError/Code/decodingFailed``), as in browsers.
@Suite(.timeLimit(scaledMinutes: 5))
struct TrailingBytesTests {
    /// Threads of this suite's own: its decodes do not queue in front of other suites' on ``WorkerThreadPool/cpu``.
    static let pool = WorkerThreadPool(threadCount: 2, name: "trailing-tests")
    static let files = [
        "baseline.jpg", "progressive.jpg", "cmyk-adobe.jpg", "orient-6.jpg", "interlaced-adam7.png",
        "palette-trns.png", "interlaced.gif", "anim-3frames.gif", "webp-lossless-alpha.webp", "heic-basic.heic",
        "avif-basic.avif", "tiff-rgba.tif", "bmp24.bmp",
    ]

    /// What follows the image: 5,137 zero bytes, a line of text, and a whole other JPEG (a motion photo's video
    /// stands in for any binary).
    static func trailers() async throws -> [(String, Data)] {
        [
            ("zeros", Data(count: 5137)), ("text", Data("uploaded with ExampleTool 2.1\n".utf8)),
            ("jpeg", try await Fixtures.caseFile("inputs/progressive.jpg")),
        ]
    }

    @Test(arguments: files)
    func decodesTheSameWithBytesAfterTheImage(file: String) async throws {
        // Given a complete image, and the same bytes followed by each trailer
        let whole = try await Fixtures.caseFile("inputs/" + file)
        let thumbnail = DecodingOptions(thumbnail: .init(maxPixelSize: 48))
        // Full size and thumbnail on libvips, and for JPEG the thumbnail on the TurboJPEG fast path too
        let libvips = VipsDecoder(pool: Self.pool, jpegFastPath: false)
        var runs = [(libvips, DecodingOptions()), (libvips, thumbnail)]
        if file.hasSuffix(".jpg") { runs.append((VipsDecoder(pool: Self.pool), thumbnail)) }

        for (decoder, options) in runs {
            let reference = try await decoder.decode(whole, options: options)
            for (name, trailer) in try await Self.trailers() {
                // When the padded bytes are decoded
                let padded = try await decoder.decode(whole + trailer, options: options)

                // Then the picture and the facts are those of the image alone
                #expect(padded.image == reference.image, "\(file) + \(name)")
                #expect(padded.info == reference.info, "\(file) + \(name)")
            }
        }
    }

    @Test func readsTheHeaderTheSameWithBytesAfterTheImage() async throws {
        // Given each image followed by random bytes
        let decoder = VipsDecoder(pool: Self.pool)
        for file in Self.files {
            let whole = try await Fixtures.caseFile("inputs/" + file)

            // When only the header is read, Then it agrees with the image alone
            let padded = try await decoder.readInfo(whole + Data(repeating: 0x5A, count: 777))
            #expect(padded == (try await decoder.readInfo(whole)), "\(file)")
        }
    }

    @Test func refusesTextAfterAnSVGRootElementAsAParseErrorNotTruncation() async throws {
        // Given an SVG followed by a line of text
        let svg = try await Fixtures.caseFile("inputs/svg-basic.svg") + Data("uploaded with ExampleTool\n".utf8)

        // When it is decoded, Then XML's rule holds: a decoding failure, never "truncated"
        let error = await #expect(throws: PinholeError.self) {
            _ = try await VipsDecoder().decode(svg, options: DecodingOptions(thumbnail: .init(maxPixelSize: 48)))
        }
        #expect(error?.code == .decodingFailed, "\(String(describing: error))")
    }
}
