import Foundation
import Pinhole
import PinholeShared
import PinholeTestFakes
import PinholeTestServer
import PinholeTestSupport
import Testing

@testable import pinhole

/// A batch run of the built binary killed with SIGKILL at random points, then restarted with the same
/// arguments (`--skip-existing`), until it completes: every output is present once and whole, and no input
/// whose output was whole when the run was killed is made again (its file keeps its inode and mtime).
///
/// The list mixes files (three fixture photos under many names, through symbolic links) and loopback URLs that
/// answer after 40 ms. Until the last run, the server never answers the last 10 URLs of the list, so a child
/// cannot finish by itself before it is killed, however late the test sees its output on a loaded machine
/// (a TSan run in CI once saw the target line only after the child had done everything). The kill comes at most
/// 30 ms after a random input of the first half of those that can finish. 120 inputs and 2 kills; 480 and 10
/// with `PINHOLE_STRESS=1`.
@Suite(.timeLimit(scaledMinutes: 5))
struct BatchResumeEndToEndTests {
    static let fixtures = ["baseline.jpg", "progressive.jpg", "size-key-source.jpg"]
    static let inputCount = ProcessInfo.processInfo.environment["PINHOLE_STRESS"] == "1" ? 480 : 120
    /// Kills before the run may finish: 2, or 10 with `PINHOLE_STRESS=1`.
    static let kills = ProcessInfo.processInfo.environment["PINHOLE_STRESS"] == "1" ? 10 : 2

    /// A whole output found after a kill: the file must never be made again.
    struct Snapshot: Equatable {
        var inode: Int
        var modified: Date
    }

    /// `--jsonl` output: per-input records, then the summary line.
    private func parse(_ stdout: String) throws -> (records: [BatchRecord], summary: BatchSummary) {
        let lines = stdout.split(separator: "\n")
        let last = try #require(lines.last)
        let summary = try JSONDecoder().decode(BatchSummary.Line.self, from: Data(last.utf8)).summary
        let records = try lines.dropLast().map { try JSONDecoder().decode(BatchRecord.self, from: Data($0.utf8)) }
        return (records, summary)
    }

    /// The whole non-hidden files in `directory`, with their inode and mtime; records an issue for any that
    /// is not whole (a partial file under an output name).
    private func wholeOutputs(in directory: String) throws -> [String: Snapshot] {
        var outputs: [String: Snapshot] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where !name.hasPrefix(".") {
            let path = directory + "/" + name
            #expect(OutputCompleteness.isComplete(atPath: path, format: .jpeg), "a partial output: \(name)")
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            outputs[path] = Snapshot(
                inode: try #require(attributes[.systemFileNumber] as? Int),
                modified: try #require(attributes[.modificationDate] as? Date))
        }
        return outputs
    }

    @Test func aRunKilledAtRandomPointsResumesWithEveryOutputOnceWholeAndNothingRedone() async throws {
        // Given a list of symbolic links to 3 photos and as many URLs of a server that answers after 40 ms
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let photos = try Self.fixtures.map { try Data(contentsOf: Fixtures.input($0)) }
        for (index, name) in Self.fixtures.enumerated() { try directory.write(photos[index], to: "originals/\(name)") }
        let server = try PinholeTestServer()
        defer { server.stop() }
        // (held: the last 10 URLs get no answer until the last run)
        let holding = Locked(true)
        let heldFrom = Self.inputCount - 20
        server.setHandler { request in
            guard let number = Int(request.path.dropFirst("/photos/".count).prefix { $0.isNumber }) else { return nil }
            if number >= heldFrom, holding.withLock({ $0 }) { return Route(behavior: .neverRespond) }
            return Route.image(photos[number % photos.count], latency: .milliseconds(40))
        }
        var lines: [String] = []
        for index in 0..<Self.inputCount {
            if index % 2 == 0 {
                let link = directory.file(String(format: "in/photo-%03d.jpg", index))
                try FileManager.default.createDirectory(atPath: directory.file("in"), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(
                    atPath: link, withDestinationPath: directory.file("originals/" + Self.fixtures[index % 3]))
                lines.append(link)
            } else {
                lines.append(server.url("/photos/\(index).jpg").absoluteString)
            }
        }
        try directory.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: "list.txt")
        let out = directory.file("out")
        let naming = OutputNaming(size: 48, fileExtension: "jpg")
        let expectedOutput = try Dictionary(
            uniqueKeysWithValues: lines.map { line in
                let input = try #require(InputFile(listed: line))
                return (line, out + "/" + naming.name(forListed: input.relativePath, hash: StableHash.fnv1a64(line)))
            })
        let arguments = [
            "thumbnail", "--input-list", directory.file("list.txt"), "--out", out, "--size", "48",
            "--jobs", "2", "--jsonl", "--skip-existing",
        ]

        // When the run is killed twice (10 times under stress), each time at a random moment after a random input
        // of the first half of those not yet done has finished
        var finished: [String: Snapshot] = [:]
        var rng = SystemRandomNumberGenerator()
        for round in 1...Self.kills {
            let child = try KillableChild(arguments)
            let finishable = lines.prefix(heldFrom).filter { finished[expectedOutput[$0] ?? ""] == nil }
            // (when an earlier round's kill came after every finishable input, the child is killed while it
            // waits for the held URLs alone)
            if !finishable.isEmpty {
                let target = finishable[Int.random(in: 0..<max(1, finishable.count / 2), using: &rng)]
                let seen = await child.waitForOutput("\"input\":\"\(target)\"", timeout: .seconds(90))
                try #require(seen, "round \(round): the child never reported \(target)")
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<30, using: &rng)))
            child.kill()
            let status = try await child.waitForExit()
            #expect(status == 128 + SIGKILL, "round \(round): the child ended by itself before the kill")
            // Then every file under an output name is whole, and those already seen are untouched
            let outputs = try wholeOutputs(in: out)
            for (path, snapshot) in finished { #expect(outputs[path] == snapshot, "remade: \(path)") }
            finished = outputs
        }
        #expect(!finished.isEmpty && finished.count < Self.inputCount)

        // And when it is run once more to the end, with every URL answered
        holding.withLock { $0 = false }
        let result = try await PinholeBinary.run(arguments, in: directory.path, timeout: .seconds(180))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let (records, summary) = try parse(result.stdout)

        // Then every input is reported once: skipped if its output was whole at the last kill, else written
        #expect(summary.inputs == Self.inputCount && summary.failed == 0)
        #expect(records.map(\.input).sorted() == lines.sorted())
        for record in records {
            let output = try #require(record.output)
            #expect(output == expectedOutput[record.input])
            #expect((record.skipped == true) == (finished[output] != nil), "\(record.input)")
        }
        #expect(summary.skipped == finished.count)
        // And the outputs are exactly one whole file per input; those made before a kill were never redone
        let outputs = try wholeOutputs(in: out)
        #expect(Set(outputs.keys) == Set(records.compactMap(\.output)))
        #expect(outputs.count == Self.inputCount)
        for (path, snapshot) in finished { #expect(outputs[path] == snapshot, "remade: \(path)") }
        // And the only other files are hidden temporary files of writes cut by a kill: at most one per job per kill
        let hidden = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix(".") }
        #expect(hidden.count <= Self.kills * 2, "\(hidden)")
        for record in records where record.skipped != true {
            let data = try Data(contentsOf: URL(fileURLWithPath: try #require(record.output)))
            let size = try #require(ImageHeader.size(of: data))
            #expect(size.width == record.width && size.height == record.height && data.count == record.bytes)
        }
    }
}
