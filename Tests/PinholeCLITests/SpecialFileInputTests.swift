import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import pinhole

/// Inputs that are not regular files: a named FIFO or a device given on the command line fails with a typed
/// error instead of blocking the run for ever, and one found in a directory is skipped.
@Suite(.timeLimit(scaledMinutes: 1))
struct SpecialFileInputTests {
    @Test func aFIFOOrADeviceNamedOnTheCommandLineFailsAsUnreadableAndTheRunFinishes() async throws {
        // Given a good image, a FIFO nothing writes to (named, and another inside a directory), and /dev/zero
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(FakeCodecs.image(width: 10, height: 10), to: "in/good.png")
        #expect(mkfifo(directory.file("pipe.jpg"), 0o600) == 0)
        #expect(mkfifo(directory.file("in/inner.jpg"), 0o600) == 0)
        var configuration = ThumbnailCommand.Configuration(inputs: [
            directory.file("pipe.jpg"), directory.file("in"),
            "/dev/zero",
        ])
        configuration.outputDirectory = directory.file("out")
        configuration.size = 100

        // When they are thumbnailed
        let report = await ThumbnailCommand(configuration: configuration, codecs: FakeCodecs().codecs).run()

        // Then the named FIFO and the device fail as unreadable, the inner FIFO is skipped, the image is written
        #expect(report.succeeded == 1)
        #expect(report.errors.map(\.input) == [directory.file("pipe.jpg"), "/dev/zero"])
        #expect(report.errors.map(\.kind) == ["file_unreadable", "file_unreadable"])
        #expect(report.exitStatus == 1)
    }
}
