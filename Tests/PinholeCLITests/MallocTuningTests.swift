import Foundation
import PinholeTestFakes
import PinholeTestSupport
import PinholeVips
import Testing

@testable import pinhole

/// The command line's glibc `malloc` tuning (`MallocTuning.apply(for:)` with `PinholeCLI.mallocWorkload`): arenas
/// keep 64 MiB of free memory at their top, so a batch of photos does not fault the same pages in again for every
/// thumbnail; the long-lived commands, the server among them, do not pad and keep one arena per core.
@Suite(.timeLimit(scaledMinutes: 3))
struct MallocTuningTests {
    struct Summary: Decodable {
        var succeeded: Int
        var pageFaults: Int
    }

    /// `pinhole thumbnail INPUTS --json` in `directory`, with `environment` added.
    static func pageFaults(
        _ inputs: [String], in directory: TemporaryDirectory, environment: [String: String]
    ) async throws -> Summary {
        let result = try await PinholeBinary.run(
            ["thumbnail"] + inputs + ["--out", "out", "--size", "360", "--jobs", "1", "--json"], in: directory.path,
            environment: environment)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return try JSONDecoder().decode(Summary.self, from: Data(result.stdout.utf8))
    }

    @Test(
        .enabled(if: !PinholeBinary.isSanitized, "a sanitizer's allocator ignores mallopt"),
        arguments: [["in"], ["--input-list", "list.txt"]])
    func aBatchFaultsFarFewerPagesInWithTheTopPadThanWithGlibcsDefault(inputs: [String]) async throws {
        // Given 12 copies of a 16 MP JPEG (each decoded at 1/8 into buffers of about a megabyte), as a directory
        // or as a list (a batch run, which reports counters only)
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        for index in 1...12 { try directory.copyFixture("large-4096x4096.jpg", to: "in/\(index).jpg") }
        try directory.write(Data((1...12).map { "in/\($0).jpg\n" }.joined().utf8), to: "list.txt")

        // When the run goes with the policy, and with glibc's own top pad (128 KiB: the policy then leaves it)
        let withPolicy = try await Self.pageFaults(inputs, in: directory, environment: [:])
        let withDefault = try await Self.pageFaults(inputs, in: directory, environment: ["MALLOC_TOP_PAD_": "131072"])

        // Then both write every thumbnail, and the policy's run faults in at most 3/4 of the pages (measured
        // in a release build: about 5,100 against 8,800 for 8 copies, of which about 2,700 are the start-up's)
        #expect(withPolicy.succeeded == 12 && withDefault.succeeded == 12)
        #expect(withPolicy.pageFaults > 0)
        #expect(
            withPolicy.pageFaults * 4 < withDefault.pageFaults * 3,
            "\(withPolicy.pageFaults) page faults with the policy, \(withDefault.pageFaults) without")
    }

    struct ArenaReport: Decodable {
        var succeeded: Int
        var arenaCount: Int
    }

    @Test(.enabled(if: !PinholeBinary.isSanitized, "a sanitizer's allocator has no glibc arenas"))
    func aLongLivedCommandKeepsAtMostOneArenaPerCoreWhateverItsThreads() async throws {
        // Given four decoding threads per core (at least 8), each with a JPEG of its own to decode at once
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let threads = max(8, 4 * cores)
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        for index in 1...threads { try directory.copyFixture("large-4096x4096.jpg", to: "in/\(index).jpg") }
        let arguments = ["debug", "rss-many", "--parallel", "\(threads)"] + (1...threads).map { "in/\($0).jpg" }

        // When a long-lived command (debug, the footprint tuning as serve and gallery) runs them, and again with
        // the user's own MALLOC_ARENA_MAX of 64 (which the tuning leaves alone: glibc's default behaviour)
        let tuned = try await PinholeBinary.run(arguments, in: directory.path)
        let untuned = try await PinholeBinary.run(
            arguments, in: directory.path, environment: ["MALLOC_ARENA_MAX": "64"])
        let tunedReport = try JSONDecoder().decode(ArenaReport.self, from: Data(tuned.stdout.utf8))
        let untunedReport = try JSONDecoder().decode(ArenaReport.self, from: Data(untuned.stdout.utf8))

        // Then both decode every file; the tuned process has at most one arena per core (the freed memory a busy
        // server keeps is per arena), where glibc alone gives the threads arenas of their own
        #expect(tunedReport.succeeded == threads && untunedReport.succeeded == threads)
        #expect(tunedReport.arenaCount >= 1 && tunedReport.arenaCount <= cores, "\(tunedReport.arenaCount) arenas")
        #expect(untunedReport.arenaCount > cores, "\(untunedReport.arenaCount) arenas without the tuning")
    }

    @Test(
        arguments: [
            ("thumbnail", true), ("serve", false), ("gallery", false), ("bench", false), ("debug", false), (nil, false),
        ])
    func onlyABatchOfThumbnailsPadsTheArenaTop(command: String?, pads: Bool) {
        // Given the first argument, When the policy is chosen, Then only a batch of thumbnails keeps a top pad (a
        // server, a gallery or a benchmark would keep what it padded: the server's soak peaked 87 MB higher with it)
        #expect((PinholeCLI.mallocWorkload(command: command) == .throughput) == pads)
    }
}
