import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import pinhole

/// The command's logic with fake codecs (no libvips): walking, sniffing, naming, bounded jobs, the report.
@Suite(.timeLimit(scaledMinutes: 1))
struct ThumbnailCommandTests {
    private func configuration(_ inputs: [String], in directory: TemporaryDirectory, jobs: Int = 2)
        -> ThumbnailCommand.Configuration
    {
        var configuration = ThumbnailCommand.Configuration(inputs: inputs.map(directory.file))
        configuration.outputDirectory = directory.file("out")
        configuration.size = 100
        configuration.jobs = jobs
        return configuration
    }

    @Test func thumbnailsImagesFoundByContentAndSkipsOtherFilesInDirectories() async throws {
        // Given a tree with fake images under misleading names, a text file and a hidden image
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(FakeCodecs.image(width: 400, height: 200), to: "in/a.txt")
        try directory.write(FakeCodecs.image(width: 50, height: 80), to: "in/sub/b.jpg")
        try directory.write(Data("hello".utf8), to: "in/notes.jpg")
        try directory.write(FakeCodecs.image(width: 9, height: 9), to: "in/.hidden.png")
        let codecs = FakeCodecs()

        // When the directory is thumbnailed
        let report = await ThumbnailCommand(configuration: configuration(["in"], in: directory), codecs: codecs.codecs)
            .run()

        // Then the two images are written with fitted sizes, and nothing else is reported
        #expect(report.exitStatus == 0)
        #expect(report.errors.isEmpty)
        #expect(
            report.outputs.map(\.output) == [directory.file("out/a.100.jpg"), directory.file("out/sub__b.100.jpg")])
        #expect(report.outputs.map(\.width) == [100, 50])
        #expect(report.outputs.map(\.height) == [50, 80])
        #expect(directory.listing("out") == ["a.100.jpg", "sub__b.100.jpg"])
        let written = try await readText(atPath: directory.file("out/a.100.jpg"))
        #expect(written == "jpeg 100x50 q80")
        #expect(report.bytesOut == written.utf8.count + "jpeg 50x80 q80".utf8.count)
        #expect(report.bytesIn == 2 * FakeCodecs.signature.count + "400x200".count + "50x80".count)
    }

    @Test func reportsExplicitBadInputsWithTheirKinds() async throws {
        // Given a good image and bad files named on the command line
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(FakeCodecs.image(width: 10, height: 10), to: "good.png")
        try directory.write(Data("<!DOCTYPE html><html></html>".utf8), to: "page.jpg")
        try directory.write(Data(), to: "empty.jpg")
        try directory.write(FakeCodecs.truncated, to: "cut.png")
        let inputs = ["good.png", "page.jpg", "empty.jpg", "cut.png", "missing.jpg"]

        // When they are thumbnailed
        let report = await ThumbnailCommand(
            configuration: configuration(inputs, in: directory),
            codecs: FakeCodecs().codecs
        ).run()

        // Then each failure has its kind, in input order, and the exit status is 1
        #expect(report.exitStatus == 1)
        #expect(report.succeeded == 1)
        #expect(report.failed == 4)
        #expect(report.errors.map(\.kind) == ["not_an_image", "empty_data", "truncated", "file_not_found"])
        #expect(report.errors.map(\.input) == inputs.dropFirst().map(directory.file))
        #expect(report.errors[0].message.contains("HTML"))
    }

    @Test(arguments: [1, 2, 5])
    func neverRunsMoreThanJobsDecodesAtOnce(jobs: Int) async throws {
        // Given 12 images and slow decodes
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        for index in 0..<12 {
            try directory.write(FakeCodecs.image(width: 20, height: 20), to: "in/\(index).png")
        }
        let codecs = FakeCodecs(decodeDuration: .milliseconds(50))

        // When thumbnailed with a job limit
        let report = await ThumbnailCommand(
            configuration: configuration(["in"], in: directory, jobs: jobs),
            codecs: codecs.codecs
        ).run()

        // Then all succeed, the limit was never passed, and decodes did overlap when allowed to
        #expect(report.succeeded == 12)
        #expect(codecs.decodes == 12)
        #expect(codecs.maxInFlight <= jobs)
        #expect(codecs.maxInFlight >= min(jobs, 2))
    }

    @Test func neverReadsItsOwnOutputDirectoryAsInput() async throws {
        // Given an output directory inside the input directory, already holding thumbnails
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(FakeCodecs.image(width: 300, height: 300), to: "a.png")
        var configuration = configuration([""], in: directory)
        configuration.inputs = [directory.path]
        let command = ThumbnailCommand(configuration: configuration, codecs: FakeCodecs().codecs)
        try directory.write(FakeCodecs.image(width: 1, height: 1), to: "out/old.png")

        // When run twice
        let first = await command.run()
        let second = await command.run()

        // Then both runs see only the input, with the same output name
        #expect(first.outputs.map(\.input) == [directory.path + "/a.png"])
        #expect(second.outputs == first.outputs)
    }

    @Test func keepsCollidingNamesApartAndStable() async throws {
        // Given two inputs with the same file name in different directories
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(FakeCodecs.image(width: 10, height: 20), to: "a/x.jpg")
        try directory.write(FakeCodecs.image(width: 30, height: 20), to: "b/x.jpg")
        let command = ThumbnailCommand(
            configuration: configuration(["a/x.jpg", "b/x.jpg"], in: directory),
            codecs: FakeCodecs().codecs)

        // When run twice
        let first = await command.run()
        let second = await command.run()

        // Then each gets its own file, under the same names both times
        #expect(first.outputs.map(\.output) == [directory.file("out/x.100.jpg"), directory.file("out/x-2.100.jpg")])
        #expect(second.outputs.map(\.output) == first.outputs.map(\.output))
        #expect(try await readText(atPath: directory.file("out/x-2.100.jpg")) == "jpeg 30x20 q80")
    }

    @Test func writesAContactSheetOfAllThumbnailsInInputOrder() async throws {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        for index in 0..<3 { try directory.write(FakeCodecs.image(width: 200, height: 100), to: "in/\(index).png") }
        var configuration = configuration(["in"], in: directory)
        configuration.contactSheet = directory.file("sheet.png")

        let report = await ThumbnailCommand(configuration: configuration, codecs: FakeCodecs().codecs).run()

        #expect(report.exitStatus == 0)
        let sheet = try #require(report.contactSheet)
        #expect(sheet.width == 300 && sheet.height == 100)
        #expect(try await readText(atPath: directory.file("sheet.png")) == "png 300x100 q85")
    }

    @Test func encodesTheReportAsOneObjectWithSortedKeys() throws {
        // Given a report
        let report = ThumbnailReport(
            succeeded: 1, failed: 1, seconds: 0.5, imagesPerSecond: 2, peakRSSBytes: 1_000_000, bytesIn: 10,
            bytesOut: 5, jobs: 2, size: 360, format: "jpeg", outputDirectory: "o",
            outputs: [.init(input: "a/b.jpg", output: "o/b.360.jpg", width: 360, height: 240, bytes: 5)],
            errors: [.init(input: "c.jpg", kind: "truncated", message: "cut")], contactSheet: nil)

        // When encoded
        let json = try report.json()

        // Then keys are sorted, slashes are not escaped, and it decodes back
        let keys = [
            "bytesIn", "bytesOut", "errors", "failed", "format", "imagesPerSecond", "jobs", "outputDirectory",
            "outputs", "peakRSSBytes", "seconds", "size", "succeeded",
        ]
        let positions = keys.compactMap { json.range(of: "\"\($0)\" :")?.lowerBound }
        #expect(positions.count == keys.count)
        #expect(positions == positions.sorted())
        #expect(json.contains("\"a/b.jpg\""))
        #expect(try JSONDecoder().decode(ThumbnailReport.self, from: Data(json.utf8)) == report)
    }
}
