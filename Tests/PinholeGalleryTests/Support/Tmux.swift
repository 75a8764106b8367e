import Foundation
import PinholeTestSupport
import Testing

/// Runs commands in a private tmux server (its own socket, no config file), for end-to-end tests of the built
/// `pinhole` binary in a real terminal. Output goes through a file (a pipe could fill and stall tmux).
struct Tmux {
    let socket = "pinhole-test-\(UUID().uuidString.prefix(8))"

    /// The built executable: `PINHOLE_BINARY` if set, else the `pinhole` SwiftPM built next to the running test
    /// bundle (so `--scratch-path .build-tsan` runs that build's binary), else `.build/debug/pinhole`.
    static var binary: String { PinholeExecutable.path }

    /// `tmux -L SOCKET -f /dev/null ARGUMENTS…` (a ``SpawnedProcess``, see ``Spawn``); returns its standard output.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        let command = ["tmux", "-L", socket, "-f", "/dev/null"] + arguments
        return try await SpawnedProcess.run(command, timeout: .seconds(30)).stdout
    }

    /// The visible pane, with SGR sequences when `escapes` is set.
    func capture(escapes: Bool = false) async throws -> String {
        try await run(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", "gallery"])
    }

    /// Captures the pane until `condition` holds (checking every 100 ms, at most `timeout` × the load factor);
    /// returns the last capture. A condition still unmet at the bound is a test failure, recorded at the caller
    /// with the pane (a wait that can never be met, such as text the layout cuts off, must not pass silently).
    func waitForPane(
        escapes: Bool = false, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (String) -> Bool
    ) async throws -> String {
        let deadline = ContinuousClock.now + LoadFactor.scaled(timeout)
        var pane = try await capture(escapes: escapes)
        while !condition(pane) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            pane = try await capture(escapes: escapes)
        }
        if !condition(pane) {
            Issue.record(
                "the pane did not show what was waited for within \(timeout) × load factor:\n\(pane)",
                sourceLocation: sourceLocation)
        }
        return pane
    }

    func killServer() async {
        _ = try? await run(["kill-server"])
    }
}
