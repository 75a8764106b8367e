import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import pinhole

/// `pinhole thumbnail --size 64,320,1080`: one output per size of every input, from one load each.
@Suite(.timeLimit(scaledMinutes: 2))
struct SeveralSizesCommandTests {
    typealias Configuration = ThumbnailCommand.Configuration

    @Test func parsesSeveralSizesInTheOrderGivenAndKeepsOneSizeAsBefore() throws {
        // When several sizes are given, or one
        let several = try Configuration.parse(["a", "--size", "64,320,1080"])
        let one = try Configuration.parse(["a", "--size", "128"])
        // Then the first is the size, the others follow it; a single size has no others
        #expect(several.size == 64 && several.extraSizes == [320, 1080] && several.sizes == [64, 320, 1080])
        #expect(one.size == 128 && one.extraSizes.isEmpty)
    }

    @Test(arguments: [
        (["a", "--size", "64,x"], "--size needs whole numbers separated by commas, not '64,x'"),
        (["a", "--size", "64,0"], "--size must be between 1 and 16384, not 0"),
        (["a", "--size", "64,64"], "--size gives 64 twice"),
        (
            ["a", "--size", "64,320", "--contact-sheet", "s.jpg"],
            "several --size values cannot be combined with --contact-sheet (one cell size)"
        ),
    ])
    func rejectsSizesItCannotMake(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Configuration.parse(arguments) }
    }

    @Test func aBatchRunReportsOneJSONLineAndWritesOneFilePerSize() async throws {
        // Given a JPEG (256×192)
        let directory = try TemporaryDirectory(prefix: "pinhole-sizes")
        defer { directory.remove() }
        try directory.copyFixture("baseline.jpg", to: "photos/baseline.jpg")

        // When it is thumbnailed at two sizes in a batch run with JSON lines
        let result = try await PinholeBinary.run(
            ["thumbnail", "photos", "--size", "16,32", "--out", "out", "--jsonl"], in: directory.path)

        // Then there is one line per size, then the summary, and both files were written
        #expect(result.status == 0, "stderr: \(result.stderr)")
        struct Line: Decodable {
            var output: String?
            var width: Int?
            var height: Int?
        }
        let lines = try result.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(Line.self, from: Data($0.utf8))
        }
        #expect(lines.count == 3)
        #expect(lines.prefix(2).map { "\($0.width ?? 0)x\($0.height ?? 0)" } == ["16x12", "32x24"])
        #expect(lines.prefix(2).compactMap(\.output) == ["out/baseline.16.jpg", "out/baseline.32.jpg"])
        #expect(directory.listing("out") == ["baseline.16.jpg", "baseline.32.jpg"])
    }

    @Test func writesOneFilePerSizeOfEveryInputWithItsDimensions() async throws {
        // Given a JPEG (256×192) and a PNG (40×30)
        let directory = try TemporaryDirectory(prefix: "pinhole-sizes")
        defer { directory.remove() }
        try directory.copyFixture("baseline.jpg", to: "photos/baseline.jpg")
        try directory.copyFixture("small-40x30.png", to: "photos/small-40x30.png")

        // When both are thumbnailed at three sizes with a JSON report
        let result = try await PinholeBinary.run(
            ["thumbnail", "photos", "--size", "16,32,128", "--out", "out", "--json"], in: directory.path)

        // Then every size of every input was written, named as a single size names it
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(
            directory.listing("out") == [
                "baseline.128.jpg", "baseline.16.jpg", "baseline.32.jpg", "small-40x30.128.jpg",
                "small-40x30.16.jpg", "small-40x30.32.jpg",
            ])
        // And the report lists each output with its size (the 40×30 PNG is not upscaled), per input in size order
        let report = try JSONReport(result.stdout)
        #expect(report.succeeded == 6 && report.failed == 0)
        #expect(
            report.outputs.map { "\($0.width)x\($0.height)" } == [
                "16x12", "32x24", "128x96", "16x12", "32x24", "40x30",
            ])
        struct Decodes: Decodable { var decodes: Int }
        let decodes = try JSONDecoder().decode(Decodes.self, from: Data(result.stdout.utf8)).decodes
        #expect(decodes == 4, "one decode per JPEG size, one for the PNG")
        for output in report.outputs {
            let data = try await readData(atPath: directory.file(output.output))
            let size = try #require(ImageHeader.size(of: data))
            #expect(size.width == output.width && size.height == output.height, "\(output.output)")
        }
    }
}
