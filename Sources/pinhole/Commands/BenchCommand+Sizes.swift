import Foundation
import PinholeBench

extension BenchCommand {
    static let sizesOptions: [OptionSpec] = [
        .value("--sizes", "LIST", help: "The sizes in pixels, separated by commas. Default: 64,320,1080."),
        .value("--runs", "N", help: "Measured rounds after one warm-up; the median is reported. Default: 5."),
        .flag("--json", help: "Print the figures as JSON."),
        .flag("--help", help: "Show this help (also -h)."),
    ]

    /// `pinhole bench sizes FILE... [--sizes LIST] [--runs N] [--json]` (``SizesBenchmark``).
    static func sizes(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentReader(options: sizesOptions).read(arguments)
        if parsed.has("--help") {
            print("USAGE: pinhole bench sizes FILE... [--sizes 64,320,1080] [--runs N] [--json]")
            return 0
        }
        guard !parsed.positionals.isEmpty else { throw UsageError("bench sizes needs at least one FILE") }
        let sizes = try ThumbnailCommand.Configuration.parseSizes(parsed.string("--sizes") ?? "64,320,1080")
        let runs = try parsed.integer("--runs", default: 5, in: 1...100)
        let benchmark = SizesBenchmark(files: parsed.positionals, sizes: sizes, runs: runs)
        do {
            let rows = try await benchmark.run { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
            print(parsed.has("--json") ? try Self.json(rows) : SizesBenchmark.text(rows, sizes: sizes))
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench sizes: \(error)\n".utf8))
            return 1
        }
    }
}
