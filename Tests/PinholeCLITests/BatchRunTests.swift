import Foundation
import Pinhole
import PinholeTestFakes
import PinholeTestSupport
import Testing

@testable import pinhole

/// Batch runs with fake codecs (no libvips): shards, resume, bounded read-ahead, bad lines.
@Suite(.timeLimit(scaledMinutes: 3))
struct BatchRunTests {
    /// `count` fake images `in/NNNN.png` of distinct sizes, and `list.txt` naming them by absolute path.
    private func makeList(_ count: Int, in directory: TemporaryDirectory) throws -> [String] {
        var paths: [String] = []
        for index in 0..<count {
            let relative = String(format: "in/%04d.png", index)
            try directory.write(FakeCodecs.image(width: 20 + index % 300, height: 10 + index % 7), to: relative)
            paths.append(directory.file(relative))
        }
        try directory.write(Data((paths.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        return paths
    }

    private func configuration(_ directory: TemporaryDirectory, jobs: Int = 2) -> ThumbnailCommand.Configuration {
        var configuration = ThumbnailCommand.Configuration(inputs: [])
        configuration.inputList = directory.file("list.txt")
        configuration.outputDirectory = directory.file("out")
        configuration.size = 100
        configuration.jobs = jobs
        configuration.jsonLines = true
        return configuration
    }

    @Test func threeShardsOfAThousandInputListCoverItExactlyOnce() async throws {
        // Given a list of 1,000 images
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let paths = try makeList(1000, in: directory)
        let harness = BatchHarness(decodeDuration: .zero)

        // When three runs take shards 0/3, 1/3 and 2/3 of it
        var shards: [[BatchRecord]] = []
        for index in 0..<3 {
            var configuration = configuration(directory, jobs: 4)
            configuration.shard = ShardSelector(index: index, count: 3)
            let run = try await harness.run(configuration)
            #expect(run.summary.listed == 1000)
            #expect(run.summary.inputs == run.records.count)
            #expect(run.summary.shard == "\(index)/3")
            shards.append(run.records)
        }

        // Then the union of their inputs is the list, with no input in two shards, and all succeeded
        let inputs = shards.map { Set($0.map(\.input)) }
        #expect(inputs.map(\.count).reduce(0, +) == 1000)
        let missing = Set(paths).subtracting(inputs[0].union(inputs[1]).union(inputs[2]))
        #expect(missing.isEmpty, "\(missing.count) inputs in no shard, e.g. \(missing.first ?? "")")
        #expect(
            inputs[0].isDisjoint(with: inputs[1]) && inputs[0].isDisjoint(with: inputs[2])
                && inputs[1].isDisjoint(with: inputs[2]))
        #expect(shards.allSatisfy { $0.count > 200 })
        #expect(shards.joined().allSatisfy { $0.error == nil && $0.width != nil })
        // And each wrote its own files: 1,000 distinct outputs
        #expect(directory.listing("out").count == 1000)
        #expect(Set(shards.joined().compactMap(\.output)).count == 1000)
    }

    @Test func skipsWholeOutputsAndMakesMissingOrCutOnesAgain() async throws {
        // Given six images thumbnailed once
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let paths = try makeList(6, in: directory)
        let harness = BatchHarness()
        let first = try await harness.run(configuration(directory))
        #expect(first.summary.succeeded == 6)
        let outputs = Dictionary(
            uniqueKeysWithValues: first.records.compactMap { record in
                record.output.map { (record.input, $0) }
            })
        // And then one output cut short by a byte (as a crash might leave it) and one deleted
        let cut = try #require(outputs[paths[1]])
        let whole = try Data(contentsOf: URL(fileURLWithPath: cut))
        try whole.dropLast().write(to: URL(fileURLWithPath: cut))
        try FileManager.default.removeItem(atPath: try #require(outputs[paths[4]]))
        let untouched = [0, 2, 3, 5].map { paths[$0] }
        let inodes = try untouched.map { try inode(try #require(outputs[$0])) }

        // When the list is run again with --skip-existing
        var again = configuration(directory)
        again.skipsExisting = true
        let second = try await harness.run(again)

        // Then the four whole outputs are skipped and left alone; the cut and the missing one are made again
        #expect(second.summary.skipped == 4)
        #expect(second.summary.succeeded == 2)
        #expect(Set(second.records.filter { $0.skipped == true }.map(\.input)) == Set(untouched))
        #expect(Set(second.records.filter { $0.width != nil }.map(\.input)) == [paths[1], paths[4]])
        #expect(try untouched.map { try inode(try #require(outputs[$0])) } == inodes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cut)) == whole)
        #expect(directory.listing("out").count == 6)
    }

    @Test func readsTheListNoFurtherAheadThanTheQueueAndTheWorkers() async throws {
        // Given 300 inputs, 2 jobs, slow decodes and a queue of 4
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        _ = try makeList(300, in: directory)
        let harness = BatchHarness(decodeDuration: .milliseconds(2))

        // When the list is run
        let run = try await harness.run(configuration(directory), queueCapacity: 4)

        // Then all are done, and inputs read but unfinished never exceeded queue + jobs + the one being queued
        #expect(run.summary.succeeded == 300)
        #expect(run.maxReadAhead <= 4 + 2 + 1, "read ahead: \(run.maxReadAhead)")
        #expect(run.maxReadAhead >= 1)
    }

    @Test func reportsBadLinesAsInvalidInputAndGoesOn() async throws {
        // Given a list with a good image, an unparseable URL, another scheme and a missing file
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        try directory.write(FakeCodecs.image(width: 30, height: 20), to: "a.png")
        let lines = [
            directory.file("a.png"), "http://exa mple.com/x.jpg", "ftp://host/y.jpg", directory.file("no.png"),
        ]
        try directory.write(Data(lines.joined(separator: "\n").utf8), to: "list.txt")

        // When it is run
        let run = try await BatchHarness().run(configuration(directory))

        // Then each line has its record: one written, two invalid_input (no output), one file_not_found
        let byInput = Dictionary(uniqueKeysWithValues: run.records.map { ($0.input, $0) })
        #expect(byInput[lines[0]]?.width == 30)
        #expect(byInput[lines[1]]?.error?.kind == "invalid_input")
        #expect(byInput[lines[1]]?.output == nil)
        #expect(byInput[lines[2]]?.error?.kind == "invalid_input")
        #expect(byInput[lines[3]]?.error?.kind == "file_not_found")
        #expect(run.summary.failed == 3 && run.summary.succeeded == 1)
        #expect(run.summary.exitStatus == 1)
    }

    @Test func reportsAMissingListAsOneFailure() async throws {
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let run = try await BatchHarness().run(configuration(directory))
        #expect(run.records.map(\.error?.kind) == ["file_not_found"])
        #expect(run.records.first?.input == directory.file("list.txt"))
        #expect(run.summary.failed == 1 && run.summary.exitStatus == 1)
    }

    @Test func argumentInputsInABatchKeepTheNamesOfAPlainRun() async throws {
        // Given a directory of images thumbnailed by a plain run
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        for index in 0..<5 { try directory.write(FakeCodecs.image(width: 40, height: 30), to: "in/\(index).png") }
        var configuration = ThumbnailCommand.Configuration(inputs: [directory.file("in")])
        configuration.outputDirectory = directory.file("out")
        configuration.size = 100
        let harness = BatchHarness()
        let plain = await ThumbnailCommand(configuration: configuration, codecs: harness.codecs).run()
        #expect(plain.succeeded == 5)

        // When the same arguments run as a batch with --skip-existing
        configuration.skipsExisting = true
        let batch = try await harness.run(configuration)

        // Then every input is found already made, under the same name
        #expect(batch.summary.skipped == 5)
        #expect(Set(batch.records.compactMap(\.output)) == Set(plain.outputs.map(\.output)))
    }

    private func inode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
    }
}
