import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// The decoder's cases of the third case set (Tests/Fixtures/cases-s3, issue 25): S306a, an Xcode-"crushed"
/// iPhone PNG (CgBI) whose failure libpng explains only through a libvips warning, and S304d, a bare JPEG XL
/// codestream (`FF 0A`). Each is a picture of four quadrants (red, green, blue, yellow from top-left to
/// bottom-right); the manifest says what its 360 px thumbnail is, or how it may fail.
@Suite(.timeLimit(scaledMinutes: 1))
struct ThirdCaseSetTests {
    static let thumbnail360 = DecodingOptions(thumbnail: .init(maxPixelSize: 360))

    /// The manifest entry `id`, and its file's bytes.
    static func entry(_ id: String) async throws -> (ThirdCaseSetEntry, Data) {
        let entry = try #require(ThirdCaseSetEntry.all[id], "no \(id) in Tests/Fixtures/cases-s3/manifest.json")
        let url = Fixtures.root.appendingPathComponent("cases-s3/inputs").appendingPathComponent(entry.file)
        return (entry, try await Fixtures.read(url))
    }

    /// Expects `image` to have the entry's 360 px size and quadrant colours, ±20 per channel: the JPEG XL
    /// codestream is lossy, and libjxl itself decodes its yellow quadrant as (255, 255, 14) at full size.
    static func expectImage(_ image: PixelImage, as entry: ThirdCaseSetEntry) throws {
        let size = try #require(entry.expected.sizes?["360"])
        #expect([image.width, image.height] == size, "\(entry.id): \(image.width)×\(image.height)")
        guard [image.width, image.height] == size else { return }
        let (w, h) = (image.width, image.height)
        let centres = [
            "tl": (w / 4, h / 4), "tr": (3 * w / 4, h / 4), "bl": (w / 4, 3 * h / 4),
            "br": (3 * w / 4, 3 * h / 4),
        ]
        for (quadrant, colour) in try #require(entry.expected.quadrants) {
            let (x, y) = try #require(centres[quadrant])
            let pixel = image.pixel(x: x, y: y)
            let got = [Int(pixel.r), Int(pixel.g), Int(pixel.b)]
            #expect(zip(got, colour).allSatisfy { abs($0 - $1) <= 20 }, "\(entry.id) \(quadrant): \(got) vs \(colour)")
        }
    }

    /// Expects `error` to be a ``PinholeError`` of one of the entry's kinds whose message says why.
    static func expectFailure(_ error: any Error, as entry: ThirdCaseSetEntry) throws {
        let failure = try #require(error as? PinholeError, "\(entry.id): \(error)")
        #expect(entry.expected.errorKinds?.contains(failure.code.kind) == true, "\(entry.id): \(failure)")
        #expect(entry.messageMatches(failure.message), "\(entry.id): \(failure.message)")
        #expect(!failure.message.contains("no message from libvips"), "\(entry.id): \(failure.message)")
    }

    @Test(arguments: ["S306a", "S304d"])
    func thumbnailsTheCaseOrFailsSayingWhy(id: String) async throws {
        // Given the case's file
        let (entry, data) = try await Self.entry(id)

        // When it is thumbnailed to 360 px, and its header read
        let decoded = await Result { try await VipsDecoder().decode(data, options: Self.thumbnail360) }
        let info = await Result { try await VipsDecoder().readInfo(data) }

        // Then it has the manifest's size and colours, or both fail with an allowed kind and a message saying why
        switch decoded {
        case .success(let image): try Self.expectImage(image.image, as: entry)
        case .failure(let error): try Self.expectFailure(error, as: entry)
        }
        if case .failure(let error) = info { try Self.expectFailure(error, as: entry) }
    }

    @Test func aCgBIPNGFailsWithLibpngsReason() async throws {
        // Given the CgBI PNG (libpng refuses its CgBI chunk; libvips turns libpng's error into a warning only)
        let (_, data) = try await Self.entry("S306a")

        // When it is decoded at full size
        let error = await #expect(throws: PinholeError.self) {
            _ = try await VipsDecoder().decode(data, options: DecodingOptions())
        }

        // Then it is a decoding failure whose message carries libpng's own words
        #expect(error?.code == .decodingFailed, "\(String(describing: error))")
        #expect(error?.message.contains("CgBI: unhandled critical chunk") == true, "\(String(describing: error))")
        #expect(error?.detectedType == "png")
    }

    @Test func aJPEGXLCodestreamDecodesThroughLibvips() async throws {
        // Given the bare JPEG XL codestream
        let (entry, data) = try await Self.entry("S304d")

        // When it is thumbnailed to 360 px
        let decoded = try await VipsDecoder().decode(data, options: Self.thumbnail360)

        // Then it is a JPEG XL image with the manifest's size and quadrant colours
        #expect(decoded.info.format == .jxl)
        try Self.expectImage(decoded.image, as: entry)
    }

    @Test func anUntrustedSourceMayNotBeDecodedAsJPEGXL() async throws {
        // Given the JPEG XL codestream, decoded under the untrusted defaults
        let (_, data) = try await Self.entry("S304d")
        let options = DecodingOptions(untrustedFormats: ImageFormat.untrustedDefault)

        // When it is decoded
        let error = await #expect(throws: PinholeError.self) {
            _ = try await VipsDecoder().decode(data, options: options)
        }

        // Then it is refused as unsupported, naming JPEG XL
        #expect(error?.code == .unsupportedFormat, "\(String(describing: error))")
        #expect(
            error?.message.contains("JPEG XL is not decoded from untrusted sources") == true,
            "\(String(describing: error))")
        #expect(error?.detectedType == "jxl")
    }
}
