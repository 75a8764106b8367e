import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import pinhole

/// A run over known inputs starts the largest files first and still reports in input order.
@Suite(.timeLimit(scaledMinutes: 1))
struct LargestFirstOrderTests {
    @Test func startsUnknownSizesFirstThenLargestFirstWithTiesInInputOrder() {
        // Given inputs of 10, unknown, 30, 20 and 30 bytes
        let byteCounts: [Int?] = [10, nil, 30, 20, 30]

        // When they are put in start order
        let order = LargestFirstOrder.indices(byteCounts: byteCounts)

        // Then the unknown one starts first, then 30, 30 (input order), 20 and 10
        #expect(order == [1, 2, 4, 3, 0])
        #expect(LargestFirstOrder.indices(byteCounts: []) == [])
    }

    @Test func aDirectoryRunDecodesTheLargestFileFirstAndReportsInDirectoryOrder() async throws {
        // Given a directory whose files grow in size against their name order (fake images: the header is the size)
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(FakeCodecs.image(width: 1, height: 1), to: "in/a.png")
        try directory.write(FakeCodecs.image(width: 22, height: 22), to: "in/b.png")
        try directory.write(FakeCodecs.image(width: 4444, height: 4444), to: "in/c.png")
        try directory.write(FakeCodecs.image(width: 333, height: 333), to: "in/d.png")
        var configuration = ThumbnailCommand.Configuration(inputs: [directory.file("in")])
        configuration.outputDirectory = directory.file("out")
        configuration.size = 100
        configuration.jobs = 1
        configuration.readAhead = 0  // one input in flight, so the start order is the decode order
        let codecs = FakeCodecs(decodeDuration: .zero)

        // When it is thumbnailed one job at a time
        let report = await ThumbnailCommand(configuration: configuration, codecs: codecs.codecs).run()

        // Then the decodes started largest file first, and the report keeps the directory's order
        #expect(report.exitStatus == 0)
        #expect(codecs.decodeOrder == ["4444x4444", "333x333", "22x22", "1x1"])
        #expect(report.outputs.map(\.input) == ["a.png", "b.png", "c.png", "d.png"].map { directory.file("in/\($0)") })
    }

    @Test func theCollectorRecordsEachFilesSize() async throws {
        // Given a named file, a named symbolic link to a larger one, and a directory with one file, of known sizes
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(FakeCodecs.image(width: 12, height: 34), to: "named.png")
        try directory.write(FakeCodecs.image(width: 1234, height: 5678), to: "target.png")
        try FileManager.default.createSymbolicLink(
            atPath: directory.file("link.png"),
            withDestinationPath: directory.file("target.png"))
        try directory.write(FakeCodecs.image(width: 5, height: 6), to: "tree/found.png")

        // When they are collected
        let collector = InputCollector(excluding: [])
        let inputs = try await collector.collect(
            [directory.file("named.png"), directory.file("link.png"), directory.file("tree")])

        // Then each input carries its size in bytes (8 signature bytes and the header text), the link its target's
        #expect(inputs.map(\.byteCount) == [8 + 5, 8 + 9, 8 + 3])
    }
}
