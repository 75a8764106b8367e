import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import pinhole

/// `--skip-existing` leaves only whole outputs alone: a file cut short, empty, or of another format is made again.
@Suite(.timeLimit(scaledMinutes: 1))
struct OutputCompletenessTests {
    @Test(arguments: [
        ("baseline.jpg", ImageFormat.jpeg), ("small-40x30.png", .png), ("webp-lossless-alpha.webp", .webp),
    ])
    func acceptsAWholeFileAndRefusesItCutShort(name: String, format: ImageFormat) throws {
        // Given a whole image file, and copies of it cut short by 1 byte and to half
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let data = try Data(contentsOf: Fixtures.input(name))
        try directory.write(data, to: "whole")
        try directory.write(data.dropLast(), to: "short")
        try directory.write(data.prefix(data.count / 2), to: "half")

        // Then only the whole one is complete, and only in its own format
        #expect(OutputCompleteness.isComplete(atPath: directory.file("whole"), format: format))
        #expect(!OutputCompleteness.isComplete(atPath: directory.file("short"), format: format))
        #expect(!OutputCompleteness.isComplete(atPath: directory.file("half"), format: format))
        let other: ImageFormat = format == .jpeg ? .png : .jpeg
        #expect(!OutputCompleteness.isComplete(atPath: directory.file("whole"), format: other))
    }

    @Test func refusesMissingEmptyAndDirectoryOutputs() throws {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(Data(), to: "empty.jpg")
        try FileManager.default.createDirectory(atPath: directory.file("dir.jpg"), withIntermediateDirectories: true)
        #expect(!OutputCompleteness.isComplete(atPath: directory.file("missing.jpg"), format: .jpeg))
        #expect(!OutputCompleteness.isComplete(atPath: directory.file("empty.jpg"), format: .jpeg))
        #expect(!OutputCompleteness.isComplete(atPath: directory.file("dir.jpg"), format: .jpeg))
    }
}
