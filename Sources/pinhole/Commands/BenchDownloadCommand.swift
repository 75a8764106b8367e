import Foundation
import PinholeBench

/// `pinhole bench download`: the HTTP transport alone (``DownloadBenchmark``).
enum BenchDownloadCommand {
    static let options: [OptionSpec] = [
        .value("--runs", "N", help: "Measured runs per transport; the median is reported. Default: 5."),
        .value("--requests", "N", help: "Requests per run. Default: 1000."),
        .flag("--json", help: "Print the figures as one JSON object (sorted keys)."),
        .flag("--help", help: "Show this help (also -h)."),
    ]

    static let help = """
        USAGE: pinhole bench download [--runs N] [--requests N] [--json]

        1,000 small images (distinct URLs) from a loopback server, 6 at a time, through the HTTP loader (libcurl)
        alone: wall time and CPU per request (the in-process server's threads not counted) and peak threads over
        the baseline.

        OPTIONS:
        \(options.map { "  \($0.synopsis.padding(toLength: 16, withPad: " ", startingAt: 0)) \($0.help)" }
            .joined(separator: "\n"))
        """

    static func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentReader(options: options).read(arguments)
        if parsed.has("--help") {
            print(help)
            return 0
        }
        var configuration = DownloadBenchmark.Configuration()
        configuration.runs = try parsed.integer("--runs", default: 5, in: 1...100)
        configuration.requests = try parsed.integer("--requests", default: 1000, in: 1...1_000_000)
        let json = parsed.has("--json")
        do {
            let result = try await DownloadBenchmark(configuration: configuration).run { line in
                if !json { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            }
            print(json ? try BenchCommand.json(result) : result.text)
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench download: \(error)\n".utf8))
            return 1
        }
    }
}
