import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// `pinhole thumbnail` end to end: the built binary, real libvips, real files in a temporary directory.
@Suite(.timeLimit(scaledMinutes: 2))
struct ThumbnailEndToEndTests {
    /// Good fixtures and the size each gets in a 64-px box (orient-6.jpg is stored 80×120, displayed 120×80).
    static let goodFixtures: [(name: String, width: Int, height: Int)] = [
        ("baseline.jpg", 64, 48), ("orient-6.jpg", 64, 43), ("small-40x30.png", 40, 30), ("webp-as-jpg.jpg", 64, 48),
    ]

    /// A directory `photos` of good images, a truncated JPEG and files that are not images, plus `bad/`
    /// holding an HTML page and an empty file (to be given by name).
    private func makeInputs() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        for fixture in Self.goodFixtures { try directory.copyFixture(fixture.name, to: "photos/\(fixture.name)") }
        try directory.copyFixture("baseline-truncated-55pct.jpg", to: "photos/sub/baseline-truncated-55pct.jpg")
        try directory.copyFixture("html-200-as-jpeg.jpg", to: "photos/html-200-as-jpeg.jpg")
        try directory.write(Data("not a photo\n".utf8), to: "photos/README.txt")
        try directory.copyFixture("html-200-as-jpeg.jpg", to: "bad/html-200-as-jpeg.jpg")
        try directory.copyFixture("empty.jpg", to: "bad/empty.jpg")
        return directory
    }

    @Test func reportsGoodAndBadInputsInJSONAndExitsWithOne() async throws {
        // Given a directory with good and bad images, and bad files given by name
        let directory = try makeInputs()
        defer { directory.remove() }

        // When thumbnailed at 64 px with a JSON report
        let result = try await PinholeBinary.run(
            [
                "thumbnail", "photos", "bad/html-200-as-jpeg.jpg", "bad/empty.jpg", "--size", "64", "--out", "out",
                "--json",
            ], in: directory.path)

        // Then the status is 1, the report lists every good image with its size and every bad one with its kind
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let report = try JSONReport(result.stdout)
        #expect(report.succeeded == 4)
        #expect(report.failed == 3)
        #expect(report.outputs.map(\.input) == Self.goodFixtures.map { "photos/\($0.name)" })
        #expect(report.outputs.map(\.width) == Self.goodFixtures.map(\.width))
        #expect(report.outputs.map(\.height) == Self.goodFixtures.map(\.height))
        #expect(
            report.errors.map(\.input)
                == ["photos/sub/baseline-truncated-55pct.jpg", "bad/html-200-as-jpeg.jpg", "bad/empty.jpg"])
        #expect(report.errors.map(\.kind) == ["truncated", "not_an_image", "empty_data"])
        #expect(report.seconds > 0 && report.imagesPerSecond > 0)
        #expect(report.peakRSSBytes > 1_000_000)
        #expect(report.bytesIn > 0 && report.bytesOut > 0)

        // And the thumbnail files exist with the sizes reported; nothing else was written
        #expect(
            directory.listing("out") == [
                "baseline.64.jpg", "orient-6.64.jpg", "small-40x30.64.jpg",
                "webp-as-jpg.64.jpg",
            ])
        var bytesOut = 0
        for output in report.outputs {
            let data = try await readData(atPath: directory.file(output.output))
            bytesOut += data.count
            #expect(ImageFormat.sniff(data) == .image(.jpeg))
            let size = try #require(ImageHeader.size(of: data))
            #expect(size.width == output.width && size.height == output.height, "\(output.output)")
        }
        #expect(bytesOut == report.bytesOut)
    }

    @Test func exitsWithZeroAndPrintsASummaryWhenAllSucceed() async throws {
        let directory = try makeInputs()
        defer { directory.remove() }
        try FileManager.default.removeItem(atPath: directory.file("photos/sub"))

        // When the directory (good images and silently skipped non-images) is thumbnailed
        let result = try await PinholeBinary.run(["thumbnail", "photos", "--size=64"], in: directory.path)

        // Then the status is 0, the summary is on stdout, and nothing (no libvips noise, no bar) is on stderr
        #expect(result.status == 0)
        #expect(result.stdout.contains("4 thumbnails written to thumbnails, 0 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("images/s"))
        #expect(result.stdout.contains("peak RSS"))
        #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
        #expect(directory.listing("thumbnails").count == 4)
    }

    @Test func writesAContactSheetOfTheThumbnails() async throws {
        let directory = try makeInputs()
        defer { directory.remove() }

        let result = try await PinholeBinary.run(
            ["thumbnail", "photos", "--size", "64", "--contact-sheet", "sheet.png", "--json"], in: directory.path)

        #expect(result.status == 1)  // the truncated JPEG
        let sheet = try #require(try JSONReport(result.stdout).contactSheet)
        let data = try await readData(atPath: directory.file("sheet.png"))
        #expect(ImageFormat.sniff(data) == .image(.png))
        let size = try #require(ImageHeader.size(of: data))
        #expect(size.width == sheet.width && size.height == sheet.height)
        #expect(sheet.width >= 2 * 64 && sheet.height >= 64)
    }

    @Test func keepsNamesStableAcrossRunsAndApartWhenFileNamesCollide() async throws {
        // Given two different images both called x.jpg
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.copyFixture("baseline.jpg", to: "a/x.jpg")
        try directory.copyFixture("orient-6.jpg", to: "b/x.jpg")
        let arguments = ["thumbnail", "a/x.jpg", "b/x.jpg", "--size", "64", "--json"]

        // When run twice
        let first = try JSONReport(try await PinholeBinary.run(arguments, in: directory.path).stdout)
        let second = try JSONReport(try await PinholeBinary.run(arguments, in: directory.path).stdout)

        // Then each has its own file, with the same names both times
        #expect(first.outputs.map(\.output) == ["thumbnails/x.64.jpg", "thumbnails/x-2.64.jpg"])
        #expect(second.outputs.map(\.output) == first.outputs.map(\.output))
        var sizes: [(width: Int, height: Int)] = []
        for output in first.outputs {
            sizes.append(try #require(ImageHeader.size(of: try await readData(atPath: directory.file(output.output)))))
        }
        #expect(sizes.map(\.width) == [64, 64] && sizes.map(\.height) == [48, 43])
    }

    @Test(arguments: [("png", ImageFormat.png), ("webp", .webp), ("jpeg", .jpeg)])
    func writesTheRequestedFormat(name: String, format: ImageFormat) async throws {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.copyFixture("baseline.jpg")

        let result = try await PinholeBinary.run(
            ["thumbnail", "baseline.jpg", "--format", name, "--size", "100", "--quality", "50", "--json"],
            in: directory.path)

        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = try #require(try JSONReport(result.stdout).outputs.first)
        let data = try await readData(atPath: directory.file(output.output))
        #expect(ImageFormat.sniff(data) == .image(format))
        #expect(ImageHeader.size(of: data).map { [$0.width, $0.height] } == [100, 75])
    }
}
