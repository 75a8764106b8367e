import Foundation
import PinholeBench

/// `pinhole bench experiments`: the seeds' three concurrency experiments as tables (see ``ConcurrencyExperiments``).
extension BenchCommand {
    static let experimentsOptions: [OptionSpec] = [
        .flag("--json", help: "Print the figures as one JSON object (sorted keys)."),
        .flag("--help", help: "Show this help (also -h)."),
    ]

    static let experimentsHelp = """
        USAGE: pinhole bench experiments [--json]

        (a) summing 50 M Doubles: serial, concurrentPerform, task groups of 10 / 100 / 1,000 / 100,000 chunks;
        (b) N = 10 / 64 / 100 / 1,000 concurrent 200 ms waits: GCD + blocking sleep vs tasks + Task.sleep;
        (c) a loopback response's delay while every core runs 3 s CPU jobs: equal and higher priority, jobs
            yielding every 5 ms and 50 ms, jobs on a dedicated executor (WorkerThreadPool).
        """

    static func experiments(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentReader(options: experimentsOptions).read(arguments)
        if parsed.has("--help") {
            print(experimentsHelp)
            return 0
        }
        guard parsed.positionals.isEmpty else { throw UsageError("bench experiments takes no positional arguments") }
        let json = parsed.has("--json")
        do {
            let result = try await ConcurrencyExperiments().run { line in
                FileHandle.standardError.write(Data(("experiments: " + line + "\n").utf8))
            }
            print(json ? try Self.json(result) : result.text)
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench experiments: \(error)\n".utf8))
            return 1
        }
    }
}
