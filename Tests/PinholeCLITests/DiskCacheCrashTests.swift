import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The disk cache survives a writer killed at any moment: `pinhole debug disk-cache-writer` stores
/// self-checking entries (key line + data + FNV-1a hash) and is SIGKILLed at seeded random moments; each reopened
/// cache (`pinhole debug disk-cache-check`) serves only whole entries of the right key, stays under its size
/// limit on disk, and stores and reads a new entry.
///
/// 120 kills with `PINHOLE_STRESS=1` (`.ci/run` runs the stress tests on their own); 20 in the ordinary suite.
@Suite(.timeLimit(scaledMinutes: 5))
struct DiskCacheCrashTests {
    struct Check: Decodable {
        var entries: Int
        var verified: Int
        var mismatched: [String]
        var indexedBytes: Int
        var bytesOnDisk: Int
        var sizeLimit: Int
        var storeAndReadWorks: Bool
        var passed: Bool
    }

    static let kills = ProcessInfo.processInfo.environment["PINHOLE_STRESS"] == "1" ? 120 : 20

    @Test func aWriterKilledAtRandomMomentsNeverLeavesATornEntry() async throws {
        // Given one cache directory (400 KB limit) shared by every writer in turn
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        var rng = SystemRandomNumberGenerator()
        var killedWhileWriting = 0
        var checks: [Check] = []
        for round in 1...Self.kills {
            // When a writer starts, gets going, and is killed 0–150 ms later (seeded per round)
            let child = try KillableChild(["debug", "disk-cache-writer", directory.path, "--seed", "\(round)"])
            let ready = await child.waitForOutput("ready")
            try await Task.sleep(for: .microseconds(Int.random(in: 0..<150_000, using: &rng)))
            child.kill()
            let status = try await child.waitForExit()
            if ready && status == 128 + SIGKILL { killedWhileWriting += 1 }
            // Then every tenth round the reopened cache serves only intact entries and respects its limit
            if round % 10 == 0 {
                let result = try await PinholeBinary.run(
                    ["debug", "disk-cache-check", directory.path], in: directory.path)
                let check = try JSONDecoder().decode(Check.self, from: Data(result.stdout.utf8))
                #expect(check.passed, "round \(round): \(result.stdout) \(result.stderr)")
                #expect(check.mismatched.isEmpty)
                #expect(check.bytesOnDisk <= check.sizeLimit)
                #expect(check.indexedBytes <= check.sizeLimit)
                #expect(check.storeAndReadWorks)
                checks.append(check)
            }
        }
        // And the writers really were killed mid-run, over a cache that held entries
        #expect(killedWhileWriting >= Self.kills * 5 / 6)
        #expect(checks.contains { $0.entries > 3 })
        #expect(checks.allSatisfy { $0.verified == $0.entries })
    }
}
