import Foundation
import PinholeBench

/// `pinhole bench batch`: peak RSS of `pinhole thumbnail --input-list -` over a long list against a short one
/// (see ``BatchMemoryBenchmark``).
extension BenchCommand {
    static let batchOptions: [OptionSpec] = [
        .value("--inputs", "N", help: "Lines of the long list. Default: 100000."),
        .value("--reference", "N", help: "Lines of the reference list. Default: 100."),
        .value("--size", "PIXELS", help: "--size of the runs. Default: 160."),
        .value("--photo-side", "PIXELS", help: "Longest side of the source photos. Default: 640."),
        .value("--jobs", "N", help: "--jobs of the runs. Default: the active processor count."),
        .flag("--json", help: "Print the figures as one JSON object (sorted keys)."),
        .flag("--help", help: "Show this help (also -h)."),
    ]

    static let batchHelp = """
        USAGE: pinhole bench batch [CORPUS] [--inputs N] [--reference N] [--size PIXELS] [--photo-side PIXELS]
                                   [--jobs N] [--json]

        Shrinks the first 4 JPEGs of CORPUS (default: $PINHOLE_CORPUS, else ~/.cache/pinhole/corpus) to
        --photo-side pixels, links them under N different names, then runs 'pinhole thumbnail --input-list -
        --json' twice with the names written to its stdin as it reads: --reference lines, then --inputs lines.
        Prints each run's peak RSS, thumbnails/s, and the difference (flat memory: at most +30 MB at 100,000
        inputs over 100). Needs room for N thumbnails in the temporary directory; everything is removed after.

        OPTIONS:
        \(batchOptions.map { "  \($0.synopsis.padding(toLength: 20, withPad: " ", startingAt: 0)) \($0.help)" }
            .joined(separator: "\n"))
        """

    static func batch(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentReader(options: batchOptions).read(arguments)
        if parsed.has("--help") {
            print(batchHelp)
            return 0
        }
        guard parsed.positionals.count <= 1 else { throw UsageError("at most one corpus directory") }
        var configuration = BatchMemoryBenchmark.Configuration(
            pinholeExecutable: executablePath, corpus: parsed.positionals.first ?? defaultCorpus)
        configuration.inputs = try parsed.integer("--inputs", default: 100_000, in: 1...10_000_000)
        configuration.referenceInputs = try parsed.integer("--reference", default: 100, in: 1...10_000_000)
        configuration.size = try parsed.integer("--size", default: 160, in: 1...16384)
        configuration.photoSide = try parsed.integer("--photo-side", default: 640, in: 16...16384)
        configuration.jobs = try parsed.integer("--jobs", default: configuration.jobs, in: 1...256)
        do {
            let result = try await BatchMemoryBenchmark(configuration: configuration).run { line in
                FileHandle.standardError.write(Data(("bench batch: " + line + "\n").utf8))
            }
            print(parsed.has("--json") ? try Self.json(result) : result.text)
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench batch: \(error)\n".utf8))
            return 1
        }
    }
}
