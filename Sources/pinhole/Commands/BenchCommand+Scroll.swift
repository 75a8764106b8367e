import Foundation
import PinholeBench

/// `pinhole bench scroll`: the scroll reproduction (see ``ScrollBenchmark``).
extension BenchCommand {
    static let scrollOptions: [OptionSpec] = [
        .value(
            "--strategy", "S",
            help: "naive, pinhole, unguarded (Pinhole with ImageSlot's generation check off, "
                + "to show the wrong-row measure works) or both (idle reference loop, Pinhole, naive). Default: both."),
        .value("--rows", "N", help: "Rows in the list. Default: 200."),
        .value("--visible", "N", help: "Rows on screen. Default: 12."),
        .value("--latency-ms", "MS", help: "Server latency per image. Default: 250."),
        .flag("--refresh", help: "Change every row's URL every 400 ms during the scroll."),
        .value("--duration-s", "S", help: "The flick top → bottom → top, in seconds. Default: 7.3."),
        .value("--naive-cap-s", "S", help: "Stop the naive run after this many seconds. Default: 60."),
        .flag("--json", help: "Print one JSON object per strategy (sorted keys)."),
        .flag("--help", help: "Show this help (also -h)."),
    ]

    static let scrollHelp = """
        USAGE: pinhole bench scroll [--strategy naive|pinhole|unguarded|both] [--rows 200] [--visible 12]
                                    [--latency-ms 250] [--refresh] [--duration-s 7.3] [--naive-cap-s 60] [--json]

        A headless list against an in-process server of 600x600 JPEGs made from the corpus ($PINHOLE_CORPUS,
        else ~/.cache/pinhole/corpus), with a 60 Hz frame loop on the main actor: the naive GCD code against
        Pinhole's ImageSlot + ImagePipeline. Each served image carries its URL's row and refresh generation as
        coloured cells; a row is wrong when the code read from the pixels it shows is not its current URL's.
        Figures go to stdout, progress to stderr.

        OPTIONS:
        \(scrollOptions.map { "  \($0.synopsis.padding(toLength: 16, withPad: " ", startingAt: 0)) \($0.help)" }
            .joined(separator: "\n"))
        """

    static func scroll(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentReader(options: scrollOptions).read(arguments)
        if parsed.has("--help") {
            print(scrollHelp)
            return 0
        }
        guard parsed.positionals.isEmpty else { throw UsageError("bench scroll takes no positional arguments") }
        var configuration = ScrollBenchmark.Configuration()
        switch try parsed.choice("--strategy", default: "both", in: ["naive", "pinhole", "unguarded", "both"]) {
        case "naive": configuration.strategies = [.naive]
        case "pinhole": configuration.strategies = [.pinhole]
        case "unguarded": configuration.strategies = [.unguarded]
        default: configuration.strategies = [.idle, .pinhole, .naive]
        }
        configuration.rows = try parsed.integer("--rows", default: 200, in: 1...100_000)
        configuration.visibleRows = try parsed.integer("--visible", default: 12, in: 1...1000)
        configuration.latencyMs = try parsed.integer("--latency-ms", default: 250, in: 0...60_000)
        configuration.refresh = parsed.has("--refresh")
        configuration.durationSeconds = try seconds(parsed, "--duration-s", default: 7.3)
        configuration.naiveCapSeconds = try seconds(parsed, "--naive-cap-s", default: 60)
        configuration.corpus = defaultCorpus
        let json = parsed.has("--json")
        do {
            let output = { @Sendable (results: [ScrollResult]) throws -> String in
                json ? try Self.json(results) : ScrollResult.table(results)
            }
            let results = try await ScrollBenchmark(configuration: configuration).run(
                log: { line in FileHandle.standardError.write(Data(("scroll: " + line + "\n").utf8)) },
                deliver: { results in
                    // After a naive run the process's thread pool is clogged with blocked downloads: print from the
                    // main queue and exit now rather than wait minutes for a thread to resume this task.
                    let text = (try? output(results)) ?? "pinhole bench scroll: cannot encode the results"
                    FileHandle.standardOutput.write(Data((text + "\n").utf8))
                    exit(Self.reportNaiveDownloadFailure(results) ? 1 : 0)
                })
            print(try output(results))
            return Self.reportNaiveDownloadFailure(results) ? 1 : 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench scroll: \(error)\n".utf8))
            return 1
        }
    }

    /// Whether no download of the naive strategy was served; says so on stderr. Its first rows start their
    /// downloads at once, so a working run always has some. Its figures would then compare Pinhole with nothing (it
    /// happened once: `Data(contentsOf:)` reaches http URLs only when FoundationNetworking is linked, and nothing
    /// else linked it), so the run fails instead of printing them as if they meant something.
    static func reportNaiveDownloadFailure(_ results: [ScrollResult]) -> Bool {
        guard let naive = results.first(where: { $0.strategy == "naive" }), naive.requestsCompleted == 0 else {
            return false
        }
        let message =
            "pinhole bench scroll: no download of the naive strategy reached the server: its figures "
            + "are not a comparison (is FoundationNetworking linked?)\n"
        FileHandle.standardError.write(Data(message.utf8))
        return true
    }

    /// A positive number of seconds given as `name`, or `defaultValue`.
    static func seconds(_ parsed: ParsedArguments, _ name: String, default defaultValue: Double) throws(UsageError)
        -> Double
    {
        guard let text = parsed.string(name) else { return defaultValue }
        guard let value = ParsedArguments.plainDecimal(text), value > 0, value <= 86_400 else {
            throw UsageError("\(name) needs a number of seconds above 0, got '\(text)'")
        }
        return value
    }
}
