import PinholeTestSupport
import Testing

@testable import pinhole

/// Parsing the batch options of `pinhole thumbnail` and the combinations they refuse.
@Suite(.timeLimit(scaledMinutes: 1))
struct BatchOptionsTests {
    typealias Configuration = ThumbnailCommand.Configuration

    @Test func readsEveryBatchOption() throws {
        let configuration = try Configuration.parse(
            ["--input-list", "-", "--shard", "auto/4", "--skip-existing", "--jsonl", "--out", "o"],
            environment: ["JOB_COMPLETION_INDEX": "2"])
        #expect(configuration.inputList == "-")
        #expect(configuration.inputs.isEmpty)
        #expect(configuration.shard == ShardSelector(index: 2, count: 4))
        #expect(configuration.skipsExisting)
        #expect(configuration.jsonLines)
        #expect(configuration.isBatch)
    }

    @Test func aPlainRunIsNotABatch() throws {
        let configuration = try Configuration.parse(["photos", "--json"], environment: [:])
        #expect(!configuration.isBatch)
        #expect(configuration.shard == nil && configuration.inputList == nil)
    }

    @Test func argumentsWithShardOrSkipMakeABatchToo() throws {
        #expect(try Configuration.parse(["photos", "--shard", "0/2"], environment: [:]).isBatch)
        #expect(try Configuration.parse(["photos", "--skip-existing"], environment: [:]).isBatch)
    }

    @Test(arguments: [
        (["--input-list", "l.txt", "photos"], "takes the place of INPUT"),
        (["--input-list", "l.txt", "--feed", "f.json"], "takes the place of INPUT"),
        (["--input-list", "l.txt", "--json", "--jsonl"], "choose one"),
        (["--input-list", "l.txt", "--contact-sheet", "s.jpg"], "--contact-sheet needs every thumbnail"),
        (["photos", "--skip-existing", "--contact-sheet", "s.jpg"], "--contact-sheet needs every thumbnail"),
        (["--input-list", "l.txt", "--shard", "5/5"], "between 0 and 4"),
        (["--jsonl"], "no inputs"),
    ])
    func refusesCombinationsThatCannotWork(arguments: [String], expected: String) {
        #expect {
            _ = try Configuration.parse(arguments, environment: [:])
        } throws: { error in
            (error as? UsageError)?.message.contains(expected) == true
        }
    }

    @Test func helpDescribesBatchRuns() {
        let help = Configuration.help
        for text in ["--input-list FILE", "--shard I/N", "--skip-existing", "--jsonl", "BATCH RUNS:", "counters only"] {
            #expect(help.contains(text), "\(text)")
        }
    }
}
