import Foundation
import PinholeBench

/// `pinhole bench pipeline [--json]`: the pipeline's own costs (memory-cache hit, overhead per request,
/// coalescing of identical requests, threads while requests wait on a slow server).
enum BenchPipelineCommand {
    static let help = """
        USAGE: pinhole bench pipeline [--runs N] [--task-metrics] [--json]

        The pipeline's own costs, each with a reference measured in the same run: a memory-cache hit vs a locked
        dictionary lookup; a request with an instant loader and decoder vs calling them directly (5,000
        requests); 1,000 identical concurrent requests (loads caused); peak threads while 1,000 requests wait on
        a 250 ms loopback server vs the baseline (the in-process server's own threads are not counted).
        --task-metrics measures the pipelines with per-request metrics collected (collectsTaskMetrics).
        """

    static func run(_ arguments: [String]) async -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(help)
            return 0
        }
        var configuration = PipelineBenchmark.Configuration()
        if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count,
            let runs = Int(arguments[index + 1]), runs > 0
        {
            configuration.runs = runs
        }
        configuration.collectsTaskMetrics = arguments.contains("--task-metrics")
        let json = arguments.contains("--json")
        do {
            let result = try await PipelineBenchmark(configuration: configuration).run { line in
                if !json { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(result), as: UTF8.self))
            } else {
                print(result.text)
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench pipeline: \(error)\n".utf8))
            return 1
        }
    }
}
