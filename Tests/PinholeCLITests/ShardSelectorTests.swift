import PinholeShared
import PinholeTestSupport
import Testing

@testable import pinhole

/// The stable hash and `--shard`: the same answer in every process, and N shards that cover a list exactly once.
@Suite(.timeLimit(scaledMinutes: 1))
struct ShardSelectorTests {
    @Test func hashesWithFNV1a64AsPublished() {
        // The test vectors of the FNV reference (http://www.isthe.com/chongo/tech/comp/fnv/)
        #expect(StableHash.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.fnv1a64("foobar") == 0x8594_4171_f739_67e8)
        // And combining piecewise gives the hash of the whole
        var hash = StableHash()
        hash.combine("foo".utf8)
        hash.combine("bar".utf8)
        #expect(hash.value == StableHash.fnv1a64("foobar"))
    }

    @Test func threeShardsOfAThousandPathsCoverEachExactlyOnceAndEvenly() {
        // Given 1,000 paths as a list would name them
        let paths = (0..<1000).map { "photos/2024/\($0).jpg" }
        let shards = (0..<3).map { ShardSelector(index: $0, count: 3) }

        // When each path is assigned to the shards that contain it
        let owners = paths.map { path in shards.filter { $0.contains(hash: StableHash.fnv1a64(path)) }.map(\.index) }

        // Then every path has exactly one shard, and no shard is starved
        #expect(owners.allSatisfy { $0.count == 1 })
        let sizes = (0..<3).map { index in owners.filter { $0 == [index] }.count }
        #expect(sizes.reduce(0, +) == 1000)
        #expect(sizes.allSatisfy { (250...417).contains($0) }, "\(sizes)")
    }

    @Test func parsesAnExplicitIndex() throws {
        let shard = try ShardSelector.parse("2/5", environment: [:])
        #expect(shard == ShardSelector(index: 2, count: 5))
        #expect(shard.description == "2/5")
    }

    @Test func takesAutoFromAKubernetesIndexedJobFirst() throws {
        let environment = ["JOB_COMPLETION_INDEX": "3", "SLURM_ARRAY_TASK_ID": "1"]
        #expect(try ShardSelector.parse("auto/4", environment: environment) == ShardSelector(index: 3, count: 4))
    }

    @Test func takesAutoFromASlurmArrayCountingFromItsFirstTask() throws {
        // Given a Slurm array --array=1-8: task IDs 1…8
        let environment = ["SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_MIN": "1"]
        // Then task 8 is the last of 8 shards
        #expect(try ShardSelector.parse("auto/8", environment: environment) == ShardSelector(index: 7, count: 8))
        #expect(
            try ShardSelector.parse("auto/8", environment: ["SLURM_ARRAY_TASK_ID": "0"])
                == ShardSelector(index: 0, count: 8))
    }

    @Test(arguments: [
        ("3/3", "between 0 and 2"), ("-1/3", "between 0 and 2"), ("1/0", "between 1 and"), ("1", "I/N or auto/N"),
        ("a/3", "not a shard index"), ("1/3/4", "I/N or auto/N"), ("auto/3", "JOB_COMPLETION_INDEX"),
    ])
    func refusesMalformedShards(text: String, expected: String) {
        // When --shard has a bad value (and no scheduler variable is set)
        // Then it is a usage error that says what is wrong
        #expect {
            _ = try ShardSelector.parse(text, environment: [:])
        } throws: { error in
            (error as? UsageError)?.message.contains(expected) == true
        }
    }

    @Test func refusesAnAutoIndexOutsideTheShards() {
        #expect(throws: UsageError.self) {
            _ = try ShardSelector.parse("auto/4", environment: ["JOB_COMPLETION_INDEX": "4"])
        }
        #expect(throws: UsageError.self) {
            _ = try ShardSelector.parse("auto/4", environment: ["JOB_COMPLETION_INDEX": "x"])
        }
    }
}
