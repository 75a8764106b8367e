import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import pinhole

/// A thumbnail that cannot be written is a `write_failed` error naming the path, and the other inputs go on.
@Suite(.timeLimit(scaledMinutes: 1))
struct ThumbnailWriteFailureTests {
    @Test func aThumbnailThatCannotBeWrittenIsWriteFailedWithItsPath() async throws {
        // Given two images, and a directory squatting on the first one's output path (even root cannot write there)
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(FakeCodecs.image(width: 40, height: 20), to: "a.png")
        try directory.write(FakeCodecs.image(width: 20, height: 40), to: "b.png")
        try FileManager.default.createDirectory(
            atPath: directory.file("out/a.100.jpg"), withIntermediateDirectories: true)
        var configuration = ThumbnailCommand.Configuration(inputs: [directory.file("a.png"), directory.file("b.png")])
        configuration.outputDirectory = directory.file("out")
        configuration.size = 100
        // When they are thumbnailed
        let report = await ThumbnailCommand(configuration: configuration, codecs: FakeCodecs().codecs).run()
        // Then the first fails as write_failed naming its output path, the second is written
        #expect(report.errors.map(\.kind) == ["write_failed"])
        #expect(report.errors.first?.input == directory.file("a.png"))
        #expect(report.errors.first?.message.contains(directory.file("out/a.100.jpg")) == true)
        #expect(report.outputs.map(\.output) == [directory.file("out/b.100.jpg")])
        #expect(report.exitStatus == 1)
    }

    @Test func anOutputDirectoryThatCannotBeCreatedIsWriteFailed() async throws {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(FakeCodecs.image(width: 40, height: 20), to: "a.png")
        try directory.write(Data("x".utf8), to: "blocker")
        var configuration = ThumbnailCommand.Configuration(inputs: [directory.file("a.png")])
        configuration.outputDirectory = directory.file("blocker/out")
        let report = await ThumbnailCommand(configuration: configuration, codecs: FakeCodecs().codecs).run()
        #expect(report.errors.map(\.kind) == ["write_failed"])
        #expect(report.errors.first?.message.contains(directory.file("blocker/out")) == true)
        #expect(report.exitStatus == 1)
    }
}
