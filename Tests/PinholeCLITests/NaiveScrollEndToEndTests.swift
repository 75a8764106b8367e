import Foundation
import PinholeTestFakes
import PinholeTestSupport
import Testing

/// The scroll benchmark's naive strategy (the reproduced "before") really downloads: its `Data(contentsOf:)`
/// reaches the in-process server, so the figures measured against it are a comparison with something. It once made
/// no request at all (FoundationNetworking was no longer linked once the loader moved to libcurl), and every run
/// still printed figures. That was a release build: the debug build tests run links FoundationNetworking either
/// way, so the benchmark itself also fails when no naive download reached the server (checked by hand with the
/// downloads pointed at a closed port: this test fails, and the command exits 1 saying why). Run in a child
/// process: its blocking downloads clog libdispatch's global pool, which the test process shares with every other
/// test (see ScrollReproductionTests).
///
/// The list does not scroll (4 rows, all on screen), so the run ends only when every download has come back and been
/// drawn; the naive cap (60 s × the load factor) is a hang guard, never the end of a normal run. With a 20-row flick
/// and an 8 s cap it once failed under CI's stress load: those blocking downloads starve libdispatch's pool, which
/// grows by about a thread a second, so even on an idle machine only 2–3 of 12 images were shown before the cap,
/// and under load none.
@Suite(.timeLimit(scaledMinutes: 2))
struct NaiveScrollEndToEndTests {
    struct Result: Decodable {
        var strategy: String
        var requestsStarted: Int
        var requestsCompleted: Int
        var imagesShown: Int
        var unreadableImages: Int
        var wrongRowImages: Int
        var timedOut: Bool
    }

    @Test func naiveRowsDownloadFromTheServerAndShowImages() async throws {
        // Given a list of 4 rows, all on screen, on a server that answers at once
        let directory = try TemporaryDirectory(prefix: "pinhole-cli")
        defer { directory.remove() }
        let cap = LoadFactor.scaled(.seconds(60)).components.seconds
        let arguments = [
            "bench", "scroll", "--strategy", "naive", "--rows", "4", "--visible", "4", "--latency-ms", "0",
            "--duration-s", "1", "--naive-cap-s", "\(cap)", "--json",
        ]
        // When the naive strategy scrolls it in a child process. Under the sanitizer runs the child's leak and race
        // reports are off: the naive strategy is the deliberate anti-pattern, and the command exits on purpose while
        // its downloads still block their threads (LeakSanitizer then reports the buffers they hold, and makes the
        // exit status 1). What this test checks is that the downloads happen.
        var environment = ProcessInfo.processInfo.environment
        for (name, option) in [("ASAN_OPTIONS", "detect_leaks=0"), ("TSAN_OPTIONS", "exitcode=0")] {
            environment[name] = [environment[name], option].compactMap { $0 }.joined(separator: ":")
        }
        let run = try await SpawnedProcess.run(
            [PinholeBinary.path] + arguments, environment: environment, in: directory.path)
        #expect(run.status == 0, "stderr: \(run.stderr.suffix(2000))")
        let results = try #require(
            try? JSONDecoder().decode([Result].self, from: Data(run.stdout.utf8)),
            "no report: stdout \(run.stdout.prefix(400)), stderr \(run.stderr.suffix(2000))")
        let naive = try #require(results.first { $0.strategy == "naive" })
        // Then each row's download reached the server and came back, and each row showed its own decodable image
        #expect(!naive.timedOut, "the run hit its \(cap) s cap: \(naive)")
        #expect(naive.requestsStarted == 4, "\(naive)")
        #expect(naive.requestsCompleted == 4, "\(naive)")
        #expect(naive.imagesShown == 4, "\(naive)")
        #expect(naive.unreadableImages == 0, "\(naive)")
        #expect(naive.wrongRowImages == 0, "\(naive)")
    }
}
