import Foundation
import PinholeBench

extension BenchCommand {
    /// `pinhole bench thumbnail --stages [DIR] [--runs N] [--json]`.
    static func stages(_ parsed: ParsedArguments, corpus: String) async throws(UsageError) -> Int32 {
        var configuration = ThumbnailStages.Configuration(corpus: corpus)
        configuration.runs = try parsed.integer("--runs", default: 3, in: 1...100)
        let json = parsed.has("--json")
        do {
            let result = try await ThumbnailStages(configuration: configuration).run { line in
                if !json { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            }
            print(json ? try Self.json(result) : result.text)
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench --stages: \(error)\n".utf8))
            return 1
        }
    }
}
