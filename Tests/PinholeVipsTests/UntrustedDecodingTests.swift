import Foundation
import Pinhole
import PinholeTestSupport
import PinholeVips
import Testing

/// Untrusted bytes (``DecodingOptions/untrustedFormats`` set) are read only as an allowed format, only with that
/// format's own libvips loader, and with libvips' untrusted operations blocked; trusted decodes are as before.
@Suite(.timeLimit(scaledMinutes: 2))
struct UntrustedDecodingTests {
    static let untrusted = DecodingOptions(
        thumbnail: ThumbnailOptions(maxPixelSize: 64), untrustedFormats: ImageFormat.untrustedDefault)
    static let trusted = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 64))

    /// tiff-rgba.tif with its first directory's entry count set to 0: libtiff refuses it, so libvips' own TIFF loader
    /// does not claim it and libvips hands it to ImageMagick.
    static func tiffLibtiffRefuses() async throws -> Data {
        var bytes = [UInt8](try await Fixtures.caseFile("inputs/tiff-rgba.tif"))
        let directory = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        bytes[directory] = 0
        bytes[directory + 1] = 0
        return Data(bytes)
    }

    @Test(arguments: [
        "baseline.jpg", "palette-trns.png", "interlaced.gif", "webp-lossless-alpha.webp",
        "heic-basic.heic", "avif-basic.avif", "tiff-rgba.tif",
    ])
    func decodesTheAllowedFormatsAsATrustedDecodeDoes(file: String) async throws {
        // Given an image of an allowed format
        let data = try await Fixtures.caseFile("inputs/" + file)

        // When it is decoded as untrusted and as trusted, Then both give the same picture
        let confined = try await VipsDecoder().decode(data, options: Self.untrusted)
        let plain = try await VipsDecoder().decode(data, options: Self.trusted)
        #expect(confined.image == plain.image, "\(file)")
    }

    @Test func refusesFormatsOutsideTheAllowList() async throws {
        // Given a BMP (read by ImageMagick) and an SVG (a whole XML and CSS engine)
        for file in ["bmp24.bmp", "svg-basic.svg"] {
            let data = try await Fixtures.caseFile("inputs/" + file)

            // When they are decoded as untrusted, Then they are refused, saying why
            let error = await #expect(throws: PinholeError.self) {
                _ = try await VipsDecoder().decode(data, options: Self.untrusted)
            }
            #expect(error?.code == .unsupportedFormat, "\(file): \(String(describing: error))")
            #expect(
                error?.message.contains("not decoded from untrusted sources") == true, "\(String(describing: error))")

            // And a trusted decode still reads them
            _ = try await VipsDecoder().decode(data, options: Self.trusted)
        }
    }

    @Test func decodesSVGWhenTheCallerAllowsIt() async throws {
        // Given an SVG and untrusted options that add SVG to the allowed formats
        let data = try await Fixtures.caseFile("inputs/svg-basic.svg")
        var options = Self.untrusted
        options.untrustedFormats?.insert(.svg)

        // When it is decoded, Then it is rendered (libvips' SVG loader stays available for callers who ask)
        let decoded = try await VipsDecoder().decode(data, options: options)
        #expect(decoded.info.format == .svg)
        #expect(max(decoded.image.width, decoded.image.height) == 64)
    }

    @Test func refusesAnAllowedFormatThatLibvipsWouldReadWithAnotherLoader() async throws {
        // Given a TIFF that libtiff refuses, which libvips would hand to ImageMagick's loader
        let data = try await Self.tiffLibtiffRefuses()

        // When it is decoded as untrusted
        let error = await #expect(throws: PinholeError.self) {
            _ = try await VipsDecoder().decode(data, options: Self.untrusted)
        }

        // Then it is refused before any loader reads it, naming the loader libvips picked
        #expect(error?.code == .unsupportedFormat, "\(String(describing: error))")
        #expect(error?.message.contains("magickload_buffer") == true, "\(String(describing: error))")
        #expect(error?.detectedType == "tiff")
    }

    @Test func blocksUntrustedOperationsWhileAnUntrustedDecodeRunsAndLetsTrustedOnesWaitTheirTurn() async throws {
        // Given an untrusted decode of a slow PNG under way (one thread of its own)
        let switches = Switches()
        var decoder = VipsDecoder(pool: WorkerThreadPool(threadCount: 1, name: "png-untrusted"))
        decoder.onDecodeStart = switches.append
        var options = DecodeInterruptionTests.options
        options.untrustedFormats = ImageFormat.untrustedDefault
        let slow = Task { try await decoder.decode(DecodeInterruptionTests.slowPNG, options: options) }
        defer { slow.cancel() }
        try #require(await DecodeInterruptionTests.waitForTicks(20, of: switches))

        // When a trusted decode that needs an untrusted loader (a BMP, read by ImageMagick) starts meanwhile
        let bmp = try await Fixtures.caseFile("inputs/bmp24.bmp")
        let trusted = Task {
            try await VipsDecoder(pool: WorkerThreadPool(threadCount: 1, name: "bmp-trusted"))
                .decode(bmp, options: Self.trusted)
        }
        defer { trusted.cancel() }

        // Then libvips' untrusted operations are blocked while the untrusted decode runs
        #expect(Vips.untrustedOperationsBlocked)
        try await Task.sleep(for: .milliseconds(200))
        #expect(Vips.untrustedOperationsBlocked)
        let running = try #require(switches.first)
        #expect(running.ticks < DecodeInterruptionTests.totalTicks, "the untrusted decode is still running")

        // And once it ends, the trusted BMP decode runs, with the block off, and succeeds as it always did
        slow.cancel()
        let decoded = try await trusted.value
        #expect(decoded.info.format == .bmp)
        #expect(decoded.image.width == 64)
    }

    @Test func takesTurnsBetweenUntrustedDecodesAndTrustedDecodesThroughUntrustedLoaders() {
        // Given the gate's counts
        var state = UntrustedLoaderGate.State()

        // When nobody runs, Then either group may enter
        #expect(state.mayEnter(.untrusted) && state.mayEnter(.trustedUntrustedLoader))

        // When an untrusted decode runs, Then more untrusted ones may join, the other group may not
        state.running[.untrusted] = 1
        #expect(state.mayEnter(.untrusted) && !state.mayEnter(.trustedUntrustedLoader))

        // When a trusted decode waits for its turn, Then new untrusted ones wait too (no starvation)
        state.waiting[.trustedUntrustedLoader] = 1
        #expect(!state.mayEnter(.untrusted))

        // When the untrusted decodes have drained, Then the waiting trusted one enters
        state.running[.untrusted] = 0
        #expect(state.mayEnter(.trustedUntrustedLoader))
    }
}
