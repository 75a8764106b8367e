import Foundation
import PinholeTestSupport

/// Runs the built `pinhole` executable (the one next to the test bundle) as a child process
/// (``SpawnedProcess``: spawned and reaped off the cooperative pool; output through files, never a pipe).
enum PinholeBinary {
    /// What a run produced.
    struct Result: Sendable {
        /// The exit status, or 128 + the signal number when a signal ended it.
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable: `PINHOLE_BINARY` if set, else the `pinhole` SwiftPM built next to the running test
    /// bundle (so `--scratch-path .build-asan` runs the sanitized binary), else `.build/debug/pinhole`.
    static var path: String { PinholeExecutable.path }

    /// Whether ``path`` is a sanitized build (`make test-asan` / `test-tsan`): the sanitizer's allocator replaces
    /// glibc's `malloc`, and `mallopt` does nothing there.
    static var isSanitized: Bool { path.contains("/.build-asan/") || path.contains("/.build-tsan/") }

    /// Runs `pinhole arguments…` in `directory` and waits for it to exit, at most `timeout` × the load factor
    /// (then it is killed and ``SpawnedProcess/TimedOut`` thrown; so is a cancelled test's child). `environment`
    /// is added to this process's environment.
    static func run(
        _ arguments: [String], in directory: String, environment: [String: String] = [:],
        timeout: Duration = .seconds(90)
    ) async throws -> Result {
        let whole = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        let result = try await SpawnedProcess.run(
            [path] + arguments, environment: whole, in: directory, timeout: timeout)
        return Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}

/// The `--json` report as the tests read it.
struct JSONReport: Decodable {
    struct Output: Decodable {
        var input: String
        var output: String
        var width: Int
        var height: Int
    }

    struct Failure: Decodable {
        var input: String
        var kind: String
        var message: String
    }

    struct ContactSheet: Decodable {
        var output: String
        var width: Int
        var height: Int
    }

    var succeeded: Int
    var failed: Int
    var seconds: Double
    var imagesPerSecond: Double
    var peakRSSBytes: Int
    var bytesIn: Int
    var bytesOut: Int
    var outputs: [Output]
    var errors: [Failure]
    var contactSheet: ContactSheet?
    var downloads: Int
    var coalesced: Int
    var memoryHits: Int
    var diskHits: Int
    var failureHits: Int?

    init(_ text: String) throws {
        self = try JSONDecoder().decode(JSONReport.self, from: Data(text.utf8))
    }
}
