import Foundation
import PinholeBench

/// `pinhole bench thumbnail [DIR]` (throughput and memory against vipsthumbnail) and the internal
/// `pinhole bench rss FILE` (one thumbnail in this process, then its peak RSS), which the former runs in
/// fresh child processes.
enum BenchCommand {
    static let thumbnailOptions: [OptionSpec] = [
        .value("--runs", "N", help: "Measured rounds; the median is reported. Default: 5."),
        .value("--warmups", "N", help: "Unmeasured rounds first. Default: 1."),
        .value("--jobs", "N", help: "The most jobs compared with 1 job. Default: the active processor count."),
        .flag("--json", help: "Print the figures as one JSON object (sorted keys)."),
        .flag("--compare", help: "Compare with vipsthumbnail, ImageMagick, Pillow, pyvips and the TurboJPEG floor."),
        .value("--chart", "FILE", help: "With --compare: also write a PNG bar chart of the speed-ups to FILE."),
        .flag("--stages", help: "CPU time per stage (read, header, entropy decode, colour, resize, encode, write)."),
        .flag("--help", help: "Show this help (also -h)."),
    ]

    static let rssOptions: [OptionSpec] = [
        .value("--size", "PIXELS", help: "Longest side of the thumbnail. Default: 360."),
        .flag("--json", help: "Print the result as JSON."),
        .flag("--help", help: "Show this help (also -h)."),
    ]

    static let help = """
        USAGE: pinhole bench thumbnail [DIR] [--runs N] [--warmups N] [--jobs N] [--json]
               pinhole bench thumbnail --compare [DIR] [--runs N] [--warmups N] [--jobs N] [--json] [--chart FILE]
               pinhole bench thumbnail --stages [DIR] [--runs N] [--json]
               pinhole bench rss FILE [--size PIXELS] [--json]
               pinhole bench scroll [OPTIONS]      (see 'pinhole bench scroll --help')
               pinhole bench experiments [--json]
               pinhole bench pipeline [--runs N] [--json]   (see 'pinhole bench pipeline --help')
               pinhole bench download [--runs N] [--json]   (see 'pinhole bench download --help')
               pinhole bench batch [CORPUS] [--inputs N] [--json]   (see 'pinhole bench batch --help')
               pinhole bench serve [--compare] [--json] [--duration SECONDS]   (see 'pinhole bench serve --help')
               pinhole bench sizes FILE... [--sizes 64,320,1080] [--runs N] [--json]
               pinhole bench animation [CORPUS] [--seconds S] [--json]   (see 'pinhole bench animation --help')

        thumbnail  Thumbnails/s over the corpus DIR (default: $PINHOLE_CORPUS, else
                   ${XDG_CACHE_HOME:-~/.cache}/pinhole/corpus; build it with scripts/make-corpus.sh) at 360 px,
                   JPEG q80: 'pinhole thumbnail' with 1 and N jobs against 'vipsthumbnail' run one process per
                   image, 1 and N at a time, in the same run; then the peak RSS of single thumbnails, each in a
                   fresh process, over that of a 1x1 JPEG.
        --compare  Pinhole (1 and N jobs; all files and JPEGs only) against vipsthumbnail (a process per image,
                   and batch processes), ImageMagick 'convert -thumbnail' with the jpeg:size hint, Pillow with
                   draft and pyvips (both from a private venv made by scripts/bench-venv.sh if absent) and
                   the TurboJPEG 1/8-scale decode floor, interleaved in one run (default 3 runs + 1 warm-up):
                   images/s, CPU s/image, peak RSS, Pinhole's speed-up over each tool at the same jobs.
        --stages   In this process, one thread: each file's CPU time per stage (read, header, scan filter, entropy
                   decode, IDCT + colour, resize, encode, write), averaged per kind (JPEG baseline, progressive,
                   PNG, WebP), and the progressive JPEGs decoded with every scan against DC-only (default 3 runs).
        sizes      Several sizes of each FILE: one shrink-on-load decode per size against one decode and
                   resizes, and what ImagePipeline.images(for:sizes:) chose (wall and CPU ms, medians).
        rss        Make one thumbnail of FILE in this process and print the peak RSS (used by 'thumbnail').

        OPTIONS (thumbnail):
        \(thumbnailOptions.map { "  \($0.synopsis.padding(toLength: 14, withPad: " ", startingAt: 0)) \($0.help)" }
            .joined(separator: "\n"))
        OPTIONS (rss):
        \(rssOptions.map { "  \($0.synopsis.padding(toLength: 14, withPad: " ", startingAt: 0)) \($0.help)" }
            .joined(separator: "\n"))
        """

    /// Runs `pinhole bench …` (the arguments after `bench`); returns the exit status.
    static func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        switch arguments.first {
        case "thumbnail": return try await thumbnail(Array(arguments.dropFirst()))
        case "rss": return try await rss(Array(arguments.dropFirst()))
        case "pipeline": return await BenchPipelineCommand.run(Array(arguments.dropFirst()))
        case "download": return try await BenchDownloadCommand.run(Array(arguments.dropFirst()))
        case "scroll": return try await scroll(Array(arguments.dropFirst()))
        case "experiments": return try await experiments(Array(arguments.dropFirst()))
        case "batch": return try await batch(Array(arguments.dropFirst()))
        case "serve": return try await BenchServeCommand.run(Array(arguments.dropFirst()))
        case "sizes": return try await sizes(Array(arguments.dropFirst()))
        case "animation": return try await animation(Array(arguments.dropFirst()))
        case "--help", "-h":
            print(help)
            return 0
        case let other?:
            throw UsageError(
                "unknown benchmark '\(other)' (thumbnail, rss, pipeline, download, scroll, experiments, batch, serve, "
                    + "sizes or animation)")
        case nil:
            throw UsageError(
                "no benchmark given (thumbnail, rss, pipeline, download, scroll, experiments, batch, serve, sizes or "
                    + "animation)")
        }
    }

    private static func thumbnail(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentReader(options: thumbnailOptions).read(arguments)
        if parsed.has("--help") {
            print(help)
            return 0
        }
        guard parsed.positionals.count <= 1 else { throw UsageError("at most one corpus directory") }
        let corpus = parsed.positionals.first ?? defaultCorpus
        if parsed.has("--compare") { return try await compare(parsed, corpus: corpus) }
        if parsed.has("--stages") { return try await stages(parsed, corpus: corpus) }
        if parsed.string("--chart") != nil { throw UsageError("--chart needs --compare") }
        var configuration = ThumbnailBenchmark.Configuration(corpus: corpus, pinholeExecutable: executablePath)
        configuration.runs = try parsed.integer("--runs", default: 5, in: 1...100)
        configuration.warmups = try parsed.integer("--warmups", default: 1, in: 0...100)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = try parsed.integer("--jobs", default: cores, in: 1...256)
        configuration.jobCounts = Array(Set([1, jobs])).sorted()
        configuration.rssFiles = rssFiles(corpus: corpus)
        configuration.heicSources = [corpus + "/sunset-12mp.jpg"].filter { FileManager.default.fileExists(atPath: $0) }
        let json = parsed.has("--json")
        do {
            let result = try await ThumbnailBenchmark(configuration: configuration).run { line in
                if !json { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            }
            print(json ? try Self.json(result) : result.text)
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench: \(error)\n".utf8))
            return 1
        }
    }

    private static func rss(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentReader(options: rssOptions).read(arguments)
        if parsed.has("--help") {
            print(help)
            return 0
        }
        guard parsed.positionals.count == 1, let file = parsed.positionals.first else {
            throw UsageError("bench rss needs exactly one FILE")
        }
        let size = try parsed.integer("--size", default: 360, in: 1...16384)
        do {
            let result = try await RSSProbe.measure(path: file, size: size)
            print(
                parsed.has("--json")
                    ? try Self.json(result)
                    : "\(file): \(result.width)×\(result.height) → \(result.thumbnailWidth)×\(result.thumbnailHeight), "
                        + "peak RSS \(result.peakResidentBytes) bytes")
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench rss: \(error)\n".utf8))
            return 1
        }
    }

    /// The corpus: `$PINHOLE_CORPUS`, else `${XDG_CACHE_HOME:-$HOME/.cache}/pinhole/corpus`.
    static var defaultCorpus: String {
        let environment = ProcessInfo.processInfo.environment
        if let corpus = environment["PINHOLE_CORPUS"], !corpus.isEmpty { return corpus }
        let cache =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.cache")
        return cache + "/pinhole/corpus"
    }

    /// The running executable, so the benchmark measures this very build.
    static var executablePath: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    }

    /// The 4096×4096 baseline JPEG of the test fixtures, then the largest photos of the corpus (those present).
    private static func rssFiles(corpus: String) -> [String] {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let fixture = repository.appendingPathComponent("Tests/Fixtures/cases/inputs/large-4096x4096.jpg").path
        let photos = [
            "kleiber-20mp.jpg", "seeding-16mp-baseline.jpg", "kleiber-20mp-progressive.jpg",
            "sunset-12mp.png", "seeding-16mp.webp",
        ].map { corpus + "/" + $0 }
        return ([fixture] + photos).filter { FileManager.default.fileExists(atPath: $0) }
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // A figure that was not measured is NaN (ServeTarget.ratio); JSON has no NaN, so it is written as a string.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
