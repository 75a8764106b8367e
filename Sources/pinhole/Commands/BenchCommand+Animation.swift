import Foundation
import PinholeBench

extension BenchCommand {
    static let animationOptions: [OptionSpec] = [
        .value("--animations", "N", help: "Animated rows playing together. Default: 12."),
        .value("--frames", "N", help: "Frames in each animation. Default: 60."),
        .value("--seconds", "S", help: "How long they play. Default: 10."),
        .value("--size", "PIXELS", help: "The rows' thumbnail size (longest side). Default: 160."),
        .value("--budget-mb", "MB", help: "The pipeline's frame budget in MiB. Default: the pipeline's (32)."),
        .flag("--json", help: "Print the figures as JSON."),
        .flag("--help", help: "Show this help (also -h)."),
    ]

    /// `pinhole bench animation [CORPUS] [OPTIONS]` (``AnimationBenchmark``).
    static func animation(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentReader(options: animationOptions).read(arguments)
        if parsed.has("--help") {
            print(
                "USAGE: pinhole bench animation [CORPUS] [--animations N] [--frames N] [--seconds S] [--size PIXELS]"
                    + " [--budget-mb MB] [--json]\n\n"
                    + "Pans across the corpus' photos made into GIF and WebP animations, played together in list rows"
                    + " at 60 Hz:\nframes shown, decoded and evicted, decode CPU, peak frame memory against the"
                    + " budget, main-actor time a tick;\nand a player that decodes every frame up front, in the same"
                    + " run."
            )
            return 0
        }
        guard parsed.positionals.count <= 1 else { throw UsageError("at most one corpus directory") }
        var configuration = AnimationBenchmark.Configuration(corpus: parsed.positionals.first ?? defaultCorpus)
        configuration.animations = try parsed.integer("--animations", default: 12, in: 1...48)
        configuration.frames = try parsed.integer("--frames", default: 60, in: 2...1000)
        configuration.seconds = Double(try parsed.integer("--seconds", default: 10, in: 1...600))
        configuration.size = try parsed.integer("--size", default: 160, in: 16...1024)
        if parsed.string("--budget-mb") != nil {
            configuration.frameBudget = try parsed.integer("--budget-mb", default: 32, in: 1...4096) << 20
        }
        do {
            let result = try await AnimationBenchmark(configuration: configuration).run { line in
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
            print(parsed.has("--json") ? try Self.json(result) : result.text)
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench animation: \(error)\n".utf8))
            return 1
        }
    }
}
