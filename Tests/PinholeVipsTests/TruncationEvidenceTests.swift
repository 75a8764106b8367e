import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// Truncation comes from the decoders' own evidence for one decode (see ``VipsDecoder``): cut anywhere, a file
/// either fails as truncated or, when only bytes the decoder never needs are missing, gives the same picture.
@Suite(.timeLimit(scaledMinutes: 5))
struct TruncationEvidenceTests {
    static let thumbnail = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 48))
    /// Threads of this suite's own: its hundreds of decodes do not queue in front of other suites' on
    /// ``WorkerThreadPool/cpu``.
    static let pool = WorkerThreadPool(threadCount: 2, name: "truncation-tests")

    /// The error kind of a decode, or `nil` for a success whose picture is `whole`'s (`"other picture"` if not).
    static func outcome(_ data: Data, whole: PixelImage, decoder: VipsDecoder) async -> String? {
        do {
            let decoded = try await decoder.decode(data, options: thumbnail)
            return decoded.image == whole ? nil : "other picture"
        } catch let error as PinholeError {
            return error.code.kind
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test(arguments: [
        "baseline.jpg", "progressive.jpg", "cmyk-adobe.jpg", "interlaced-adam7.png", "palette-trns.png",
        "interlaced.gif", "anim-3frames.gif", "webp-lossless-alpha.webp", "tiff-rgba.tif", "bmp24.bmp",
    ])
    func aFileCutAnywhereIsTruncatedOrTheSamePicture(file: String) async throws {
        // Given a complete file and its decode
        let data = try await Fixtures.caseFile("inputs/" + file)
        let decoders =
            [VipsDecoder(pool: Self.pool)]
            + (file.hasSuffix(".jpg") ? [VipsDecoder(pool: Self.pool, jpegFastPath: false)] : [])
        for decoder in decoders {
            let whole = try await decoder.decode(data, options: Self.thumbnail).image

            // When it is cut at about 15 places after the first 16 bytes (the signatures that tell the format), and
            // just before its last byte and its last two
            let step = max(1, data.count / 15)
            let cuts = Array(stride(from: 16, to: data.count, by: step)) + [data.count - 2, data.count - 1]
            for cut in cuts {
                // Then each cut fails as truncated, or decodes to the same picture: never another error, never a
                // grey-filled partial picture
                let result = await Self.outcome(data.prefix(cut), whole: whole, decoder: decoder)
                #expect(result == nil || result == "truncated", "\(file) cut at \(cut) of \(data.count): \(result!)")
            }
        }
    }

    @Test func aGIFWithoutItsTrailerIsTruncatedWhereverItIsCut() async throws {
        // Given a 3-frame GIF (libnsgif hands out the frames it has without complaint)
        let data = try await Fixtures.caseFile("inputs/anim-3frames.gif")

        // When it is cut anywhere after its signature (every fifth byte, and every one of the last eight), Then
        // giflib's evidence makes every cut truncated, the cuts between two frames and the one that drops only the
        // trailer byte included
        for cut in Array(stride(from: 6, to: data.count - 8, by: 5)) + Array((data.count - 8)..<data.count) {
            let error = await #expect(throws: PinholeError.self) {
                _ = try await VipsDecoder(pool: Self.pool).decode(data.prefix(cut), options: Self.thumbnail)
            }
            #expect(error?.code == .truncated, "cut at \(cut) of \(data.count): \(String(describing: error))")
        }
    }

    @Test func aJPEGThatWarnsAboutCorruptDataAndEndsEarlyIsTruncated() async throws {
        // Given a baseline JPEG with stray bytes before its first Huffman table (libjpeg's first warning is then
        // "extraneous bytes before marker", not the end of the data), cut at 60%
        var bytes = [UInt8](try await Fixtures.caseFile("inputs/baseline.jpg"))
        let dht = try #require((2..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC4 })
        bytes.insert(contentsOf: [0x00, 0x13, 0x37, 0x00], at: dht)
        let complete = Data(bytes)
        let cut = complete.prefix(complete.count * 6 / 10)

        // When both are decoded on both JPEG paths
        for decoder in [VipsDecoder(pool: Self.pool), VipsDecoder(pool: Self.pool, jpegFastPath: false)] {
            // Then the complete one decodes despite the warning, and the cut one is truncated
            _ = try await decoder.decode(complete, options: Self.thumbnail)
            let error = await #expect(throws: PinholeError.self) {
                _ = try await decoder.decode(cut, options: Self.thumbnail)
            }
            #expect(error?.code == .truncated, "\(String(describing: error))")
        }
    }

    @Test func aCompletePNGWithACorruptChunkIsNotCalledTruncated() async throws {
        // Given a PNG whose image data checksum (CRC of its IDAT chunk) is broken, all bytes present
        var bytes = [UInt8](try await Fixtures.caseFile("inputs/palette-trns.png"))
        let idat = try #require((8..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("IDAT".utf8) })
        let length = bytes[(idat - 4)..<idat].reduce(0) { $0 << 8 | Int($1) }
        bytes[idat + 4 + length] ^= 0xFF

        // When it is decoded, Then it fails as a decoding failure: libpng read no byte past the end
        let error = await #expect(throws: PinholeError.self) {
            _ = try await VipsDecoder(pool: Self.pool).decode(Data(bytes), options: Self.thumbnail)
        }
        #expect(error?.code == .decodingFailed, "\(String(describing: error))")
    }
}
