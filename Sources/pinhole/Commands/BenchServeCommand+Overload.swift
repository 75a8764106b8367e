import Foundation
import PinholeBench

extension BenchServeCommand {
    static let overloadOptions: [OptionSpec] = [
        .flag("--overload", help: "Measure one server under open-loop overload instead (described above)."),
        .value("--seconds", "S", help: "--overload: seconds of the overload phase. Default: 60."),
        .value("--memory-budget", "BYTES", help: "--overload: the server's --memory-budget. Default: 256000000."),
        .value("--active-limit", "N", help: "--overload: the server's --active-limit. Default: the server's."),
        .value("--queue-limit", "N", help: "--overload: the server's --queue-limit. Default: cores."),
        .value("--queue-timeout", "SECONDS", help: "--overload: the server's --queue-timeout. Default: 2."),
        .value(
            "--server-env", "NAME=VALUE",
            help: "--overload: add to the server's environment (repeatable), e.g. MALLOC_ARENA_MAX=2."),
    ]

    static let overloadHelp = """
        --overload: one 'pinhole serve' with the given --memory-budget, --active-limit, --queue-limit and
        --queue-timeout, cold work only (every request a new source: download, decode, resize, encode), in five
        phases:
          1 idle       its RSS once started
          2 capacity   wrk closed loop at 2 x cores connections for 10 s: C = answers (200) per second
          3 unloaded   open loop at 0.25 C for 15 s: the p99 of the 200s
          4 overload   open loop at 3 C for --seconds: latencies by status, RSS sampled every 0.5 s, VmHWM
          5 recovery   RSS each second for 30 s after the load
        Open loop: scripts/open-loop-load.py (aiohttp, in the venv of scripts/bench-venv.sh) sends each request
        at its scheduled time and measures latency from it. Goals, PASS or MISS: admitted p99 <= 4 x unloaded
        p99; 503 p99 <= 10 ms; peak RSS <= budget + 64 MB; RSS after recovery, less the memory caches' content
        (kept by design), <= idle + 32 MB. Then the server's admission counters from /metrics.
        """

    /// The ``ServeOverloadSettings`` of the `--overload` options.
    static func overloadSettings(_ parsed: ParsedArguments) throws(UsageError) -> ServeOverloadSettings {
        var settings = ServeOverloadSettings(scriptsDirectory: BenchCommand.scriptsDirectory)
        settings.seconds = Double(try parsed.integer("--seconds", default: 60, in: 1...3600))
        settings.memoryBudget = try parsed.integer(
            "--memory-budget", default: settings.memoryBudget, in: 1_000_000...1 << 40)
        if parsed.string("--active-limit") != nil {
            settings.activeLimit = try parsed.integer("--active-limit", default: 1, in: 1...100_000)
        }
        settings.queueLimit = try parsed.integer("--queue-limit", default: settings.queueLimit, in: 0...100_000)
        if let text = parsed.string("--queue-timeout") {
            guard let seconds = ParsedArguments.plainDecimal(text), seconds.isFinite, (0...600).contains(seconds) else {
                throw UsageError("--queue-timeout takes seconds from 0 to 600, not \(text)")
            }
            settings.queueTimeoutSeconds = seconds
        }
        for assignment in parsed.strings("--server-env") {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw UsageError("--server-env takes NAME=VALUE, not '\(assignment)'")
            }
            settings.serverEnvironment[String(assignment[..<equals])] = String(
                assignment[assignment.index(after: equals)...])
        }
        return settings
    }

    /// Runs the overload benchmark and prints its report (or JSON); returns the exit status.
    static func runOverload(
        _ configuration: ServeBenchmark.Configuration, settings: ServeOverloadSettings, json: Bool
    ) async -> Int32 {
        do {
            let result = try await ServeBenchmark(configuration: configuration).runOverload(settings) { line in
                if !json { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            }
            print(json ? try BenchCommand.json(result) : result.text)
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench serve --overload: \(error)\n".utf8))
            return 1
        }
    }
}
