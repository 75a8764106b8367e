import Foundation
import PinholeBench

extension BenchCommand {
    /// `pinhole bench thumbnail --compare [DIR] [--runs N] [--warmups N] [--jobs N] [--json] [--chart FILE]`.
    static func compare(_ parsed: ParsedArguments, corpus: String) async throws(UsageError) -> Int32 {
        var configuration = ThumbnailComparison.Configuration(
            corpus: corpus, pinholeExecutable: executablePath, scriptsDirectory: scriptsDirectory)
        configuration.runs = try parsed.integer("--runs", default: 3, in: 1...100)
        configuration.warmups = try parsed.integer("--warmups", default: 1, in: 0...100)
        configuration.jobs = try parsed.integer(
            "--jobs", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...16)
        let json = parsed.has("--json")
        do {
            let result = try await ThumbnailComparison(configuration: configuration).run { line in
                if !json { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            }
            if let chart = parsed.string("--chart") {
                let png = try await ThumbnailComparisonChart.png(result)
                try png.write(to: URL(fileURLWithPath: chart))
            }
            print(json ? try Self.json(result) : result.text)
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench --compare: \(error)\n".utf8))
            return 1
        }
    }

    /// The repository's `scripts` directory (bench-venv.sh, bench-thumbnail.py), found from this source file.
    static var scriptsDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts").path
    }
}
