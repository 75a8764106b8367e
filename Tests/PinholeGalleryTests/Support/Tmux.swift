import Foundation
import Pinhole

/// Runs commands in a private tmux server (its own socket, no config file), for end-to-end tests of the built
/// `pinhole` binary in a real terminal. Output goes through a file (a pipe could fill and stall tmux).
struct Tmux {
    let socket = "pinhole-test-\(UUID().uuidString.prefix(8))"

    /// The built executable: `PINHOLE_BINARY` if set, else the `pinhole` SwiftPM built next to the running test
    /// bundle (so `--scratch-path .build-tsan` runs that build's binary), else `.build/debug/pinhole`.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["PINHOLE_BINARY"] { return path }
        let sibling = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("pinhole").path
        if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/pinhole").path
    }

    /// `tmux -L SOCKET -f /dev/null ARGUMENTS…` (see ``Spawn``); returns its standard output.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = try await Spawn.run(["tmux", "-L", socket, "-f", "/dev/null"] + arguments, outputPath: output)
        return try await WorkerThreadPool.io.run { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
    }

    /// The visible pane, with SGR sequences when `escapes` is set.
    func capture(escapes: Bool = false) async throws -> String {
        try await run(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", "gallery"])
    }

    /// Captures the pane until `condition` holds (checking every 100 ms, at most `timeout`); returns the last
    /// capture.
    func waitForPane(escapes: Bool = false, timeout: Duration = .seconds(60), _ condition: (String) -> Bool)
        async throws -> String
    {
        let deadline = ContinuousClock.now + timeout
        var pane = try await capture(escapes: escapes)
        while !condition(pane) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            pane = try await capture(escapes: escapes)
        }
        return pane
    }

    func killServer() async {
        _ = try? await run(["kill-server"])
    }
}
