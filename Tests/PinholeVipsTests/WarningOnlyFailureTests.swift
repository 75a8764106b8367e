import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// A decode libvips fails without an error message, reporting the cause only as a warning (libvips turns every
/// libpng error into a GLib warning), carries that warning in its ``PinholeError/message``: the warnings logged on
/// the decoding thread during that decode, never another decode's.
@Suite(.timeLimit(scaledMinutes: 1))
struct WarningOnlyFailureTests {
    /// race-a.png (32×32) with its IHDR chunk's CRC broken: libpng refuses it with "IHDR: CRC error".
    static func pngWithBrokenHeaderCRC() async throws -> Data {
        var bytes = [UInt8](try await Fixtures.caseFile("inputs/race-a.png"))
        try #require(Array(bytes[12..<16]) == Array("IHDR".utf8))
        bytes[29] ^= 0xFF  // the CRC after IHDR's 13 data bytes
        return Data(bytes)
    }

    /// race-a.png with its IDAT chunk's CRC broken: the header reads, and libpng refuses the pixel data with
    /// "IDAT: CRC error", which libvips reports as the bare error "vipspng: libpng read error".
    static func pngWithBrokenDataCRC() async throws -> Data {
        var bytes = [UInt8](try await Fixtures.caseFile("inputs/race-a.png"))
        try #require(Array(bytes[37..<41]) == Array("IDAT".utf8))
        let length = Int(bytes[33]) << 24 | Int(bytes[34]) << 16 | Int(bytes[35]) << 8 | Int(bytes[36])
        bytes[41 + length] ^= 0xFF  // the CRC after the IDAT data
        return Data(bytes)
    }

    /// The CgBI PNG of the third case set (libpng: "CgBI: unhandled critical chunk").
    static func cgbiPNG() async throws -> Data {
        try await Fixtures.read(Fixtures.root.appendingPathComponent("cases-s3/inputs/s306a-cgbi-iphone.png"))
    }

    @Test func aPNGLibpngRefusesFailsWithLibpngsReason() async throws {
        // Given a PNG whose header chunk fails its CRC
        let data = try await Self.pngWithBrokenHeaderCRC()

        // When it is thumbnailed, and its header read
        let decodeError = await #expect(throws: PinholeError.self) {
            _ = try await VipsDecoder().decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 64)))
        }
        let infoError = await #expect(throws: PinholeError.self) { _ = try await VipsDecoder().readInfo(data) }

        // Then both fail as decoding_failed with libpng's words, not "no message from libvips"
        for error in [decodeError, infoError] {
            #expect(error?.code == .decodingFailed, "\(String(describing: error))")
            #expect(
                error?.message == "cannot decode png: libvips gave no error; it warned: IHDR: CRC error",
                "\(String(describing: error))")
        }
    }

    @Test func aPNGWhosePixelDataLibpngRefusesNamesTheReasonNextToLibvipsError() async throws {
        // Given a PNG whose header is fine and whose IDAT chunk fails its CRC
        let data = try await Self.pngWithBrokenDataCRC()

        // When it is thumbnailed, and decoded at full size
        for options in [DecodingOptions(thumbnail: .init(maxPixelSize: 16)), DecodingOptions()] {
            let error = await #expect(throws: PinholeError.self) {
                _ = try await VipsDecoder().decode(data, options: options)
            }

            // Then the failure carries libpng's reason next to libvips' bare error
            #expect(error?.code == .decodingFailed, "\(String(describing: error))")
            #expect(error?.message.contains("IDAT: CRC error") == true, "\(String(describing: error))")
        }
    }

    @Test func anErrorLibvipsLeftBehindInAnotherDecodeNeverJoinsAFailuresMessage() async throws {
        // Given decodes that succeed while libvips records an error it then recovers from, on many threads
        // (libheif's reads past the end of AVIF and HEIC files: "source: bad seek to …")
        let broken = try await Self.pngWithBrokenHeaderCRC()
        let images = [
            try await Fixtures.caseFile("inputs/avif-basic.avif"),
            try await Fixtures.caseFile("inputs/heic-basic.heic"),
        ]
        for image in images {
            _ = try await VipsDecoder().decode(image, options: DecodingOptions(thumbnail: .init(maxPixelSize: 32)))
        }

        // When a PNG that libpng refuses is decoded next, after and among them
        let messages = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<24 {
                group.addTask {
                    if index % 3 != 0 {
                        _ = try await VipsDecoder().decode(
                            images[index % 2], options: DecodingOptions(thumbnail: .init(maxPixelSize: 32)))
                        return nil
                    }
                    do {
                        _ = try await VipsDecoder().decode(broken, options: DecodingOptions())
                        return "decoded"
                    } catch let error as PinholeError { return error.message }
                }
            }
            return try await group.reduce(into: [String]()) { if let message = $1 { $0.append(message) } }
        }

        // Then each failure carries libpng's words and nothing from the decodes that succeeded: libvips' calls
        // reached the per-thread error wrappers
        #expect(Vips.errorCaptureInstalled)
        #expect(messages.count == 8)
        for message in messages {
            #expect(message == "cannot decode png: libvips gave no error; it warned: IHDR: CRC error")
        }
    }

    @Test func concurrentFailuresEachCarryOnlyTheirOwnWarning() async throws {
        // Given two PNGs libpng refuses for different reasons
        let broken = try await Self.pngWithBrokenHeaderCRC()
        let cgbi = try await Self.cgbiPNG()

        // When each is decoded 16 times, all at once
        let messages = try await withThrowingTaskGroup(of: (Bool, String).self) { group in
            for index in 0..<32 {
                let isCgBI = index % 2 == 0
                group.addTask {
                    let result = await Result {
                        try await VipsDecoder().decode(isCgBI ? cgbi : broken, options: DecodingOptions())
                    }
                    guard case .failure(let error as PinholeError) = result else { return (isCgBI, "\(result)") }
                    return (isCgBI, error.message)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then every message names its own file's reason, and never the other's
        #expect(messages.count == 32)
        for (isCgBI, message) in messages {
            let own = isCgBI ? "CgBI: unhandled critical chunk" : "IHDR: CRC error"
            let other = isCgBI ? "IHDR: CRC error" : "CgBI: unhandled critical chunk"
            #expect(message.contains(own) && !message.contains(other), "\(message)")
        }
    }
}
