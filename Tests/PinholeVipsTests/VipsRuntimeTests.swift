import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import PinholeVips
import Testing

/// Process-wide behaviour: silence on stderr, captured warnings, concurrency, cancellation.
@Suite(.timeLimit(scaledMinutes: 2))
struct VipsRuntimeTests {
    let decoder = VipsDecoder()

    @Test func reportsTheLibvipsVersion() {
        #expect(Vips.version.hasPrefix("8."))
    }

    @Test func libvipsVectorPathsAreOnAndEveryORCProgramIsCompiledAndFreedUnderPinholesLock() async throws {
        // Given libvips started by PinholeVips, and the ORC program counts of the locked wrappers before
        let data = try await Fixtures.caseFile("inputs/baseline.jpg")
        let before = Vips.orcProgramCounts
        // When a thumbnail needs a lanczos reduce (libvips compiles an ORC program for it and frees it on dispose)
        let image = try await decoder.decode(
            data, options: DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 37))
        ).image
        // Then the vector paths are on, and libvips' calls reached the shim's wrappers: unlocked, two threads
        // compiling or freeing ORC programs at once corrupted liborc 0.4.33's code memory in about 2 % of
        // cancellation storms (AddressSanitizer: SEGV in orc_code_free)
        #expect(max(image.width, image.height) == 37)
        #expect(Vips.orcLockInstalled)
        #expect(Vips.vectorPathsEnabled)
        let after = Vips.orcProgramCounts
        #expect(after.compiled > before.compiled)
        #expect(after.freed > before.freed)
    }

    /// Inputs that make libjpeg, libpng and libvips complain: cut short, or corrupt in the middle.
    static func troublesomeInputs() async throws -> [Data] {
        let jpeg = try await Fixtures.caseFile("inputs/baseline.jpg")
        let png = try await Fixtures.caseFile("inputs/interlaced-adam7.png")
        var corrupt = jpeg
        let middle = corrupt.count / 2
        corrupt.replaceSubrange(
            middle..<middle + 40, with: [UInt8](repeating: 0xFF, count: 20) + [UInt8](repeating: 0x01, count: 20))
        var badCRC = png
        badCRC[40] ^= 0xFF
        return [
            jpeg.prefix(jpeg.count / 2), png.prefix(png.count / 2), corrupt, badCRC,
            Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]),
        ]
    }

    /// The decodes run in a child process (`pinhole debug decode-warnings`) whose standard error nothing else
    /// writes to, so every byte on it is the codecs' (redirecting this process's fd 2 instead would swallow the
    /// progress and failure lines of every test running in parallel).
    @Test func writesNothingToStderrAndCapturesWarnings() async throws {
        // Given inputs that make the codecs complain, in files
        let inputs = try await Self.troublesomeInputs()
        let temporary = try await onOwnThread { try TemporaryDirectory(prefix: "pinhole-stderr") }
        defer { temporary.remove() }
        let directory = temporary.url
        let paths = inputs.indices.map { directory.appendingPathComponent("input-\($0)").path }
        try await onOwnThread {
            for (data, path) in zip(inputs, paths) { try data.write(to: URL(fileURLWithPath: path)) }
        }

        // When a child process decodes them (full size and as thumbnails)
        let result = try await SpawnedProcess.run([PinholeExecutable.path, "debug", "decode-warnings"] + paths)

        // Then libvips, GLib and the codecs wrote nothing at all to its stderr, and the warnings were captured
        #expect(result.status == 0, "exit status \(result.status); stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty, "stderr got: \(result.stderr)")
        struct Report: Decodable {
            var files: Int
            var decoded: Int
            var failed: Int
            var warnings: [String]
            var leftAfterDrain: Int
        }
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        #expect(report.files == inputs.count)
        #expect(report.decoded + report.failed == 2 * inputs.count)
        #expect(report.failed > 0, "the truncated and corrupt inputs should fail")
        #expect(!report.warnings.isEmpty, "libvips should have warned about the corrupt JPEG")
        #expect(report.leftAfterDrain == 0, "draining empties the buffer")
    }

    @Test func decodesSixteenDifferentFilesConcurrentlyAsWellAsOneByOne() async throws {
        // Given 16 different fixture files
        let files = [
            "orient-3.jpg", "orient-6.jpg", "cmyk-adobe.jpg", "ycck.jpg", "progressive.jpg", "baseline.jpg",
            "interlaced.gif", "interlaced-adam7.png", "palette-trns.png", "rgba16.png", "p3-red.jpg",
            "webp-lossless-alpha.webp", "heic-basic.heic", "tiff-rgba.tif", "large-4096x4096.jpg", "svg-basic.svg",
        ]
        var inputs: [Data] = []
        for file in files { inputs.append(try await Fixtures.caseFile("inputs/" + file)) }
        let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: 48))
        var oneByOne: [PixelImage] = []
        for data in inputs { oneByOne.append(try await decoder.decode(data, options: options).image) }

        // When all are decoded at once
        let together = try await withThrowingTaskGroup(of: (Int, PixelImage).self) { group in
            for (index, data) in inputs.enumerated() {
                group.addTask { (index, try await decoder.decode(data, options: options).image) }
            }
            var results = [PixelImage?](repeating: nil, count: inputs.count)
            for try await (index, image) in group { results[index] = image }
            return results
        }

        // Then every result is identical to the one-by-one decode
        for index in files.indices {
            #expect(together[index] == oneByOne[index], "\(files[index])")
        }
    }

    @Test func aCancelledTaskGetsCancellationError() async throws {
        // Given a large JPEG
        let data = try await Fixtures.caseFile("inputs/large-4096x4096.jpg")

        // When the decoding task is already cancelled
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await decoder.decode(data, options: DecodingOptions(thumbnail: .init(maxPixelSize: 256)))
        }
        defer { task.cancel() }

        // Then it leaves with CancellationError, not a PinholeError
        await #expect(throws: CancellationError.self) { _ = try await task.cancellableValue }
    }

    @Test func composesAContactSheet() async throws {
        // Given three images: a 64×48 four-colour image, a grey one and a transparent one
        let quadrants = EncoderTests.quadrants()
        let grey = PixelImage(width: 10, height: 20, pixelFormat: .gray8, pixels: [UInt8](repeating: 100, count: 200))
        let clear = PixelImage(width: 4, height: 4, pixelFormat: .rgba8, pixels: [UInt8](repeating: 0, count: 64))

        // When they are laid out two per row in 32-px cells, 4 px apart, on black
        let sheet = try await ContactSheet.make(
            [quadrants, grey, clear], cellSize: 32, columns: 2, spacing: 4, background: .init(r: 0, g: 0, b: 0))

        // Then the sheet has the documented size and each picture sits centred in its cell
        #expect((sheet.width, sheet.height) == (2 * 32 + 3 * 4, 2 * 32 + 3 * 4))
        #expect(sheet.pixelFormat == .rgb8)
        // First cell (x 4…35, y 4…35): the 64×48 image fitted to 32×24, so rows 8…31 hold it
        #expect(sheet.pixel(x: 4 + 8, y: 4 + 4 + 6) == .init(r: 255, g: 0, b: 0))
        #expect(sheet.pixel(x: 4 + 24, y: 4 + 4 + 18).r > 200 && sheet.pixel(x: 4 + 24, y: 4 + 4 + 18).g > 200)
        #expect(sheet.pixel(x: 4 + 16, y: 4 + 1) == .init(r: 0, g: 0, b: 0))
        // Second cell (x 40…71): the 10×20 grey image kept at its size, centred
        #expect(sheet.pixel(x: 40 + 16, y: 4 + 16) == .init(r: 100, g: 100, b: 100))
        #expect(sheet.pixel(x: 40 + 2, y: 4 + 16) == .init(r: 0, g: 0, b: 0))
        // Third cell: transparent pixels flattened onto the background
        #expect(sheet.pixel(x: 4 + 16, y: 40 + 16) == .init(r: 0, g: 0, b: 0))
        // Spacing between cells is background
        #expect(sheet.pixel(x: 37, y: 20) == .init(r: 0, g: 0, b: 0))
    }

    @Test func refusesEmptyOrOversizedContactSheets() async throws {
        // Given no images, or a layout larger than libvips allows, Then the request is refused as invalid
        let empty = await #expect(throws: PinholeError.self) { _ = try await ContactSheet.make([], cellSize: 32) }
        #expect(empty?.code == .invalidRequest)
        let grey = PixelImage(width: 1, height: 1, pixelFormat: .gray8, pixels: [1])
        let huge = await #expect(throws: PinholeError.self) {
            _ = try await ContactSheet.make([grey, grey], cellSize: 9_000_000, columns: 2)
        }
        #expect(huge?.code == .invalidRequest)
    }
}
