import Foundation
import Pinhole

/// The `pinhole` command line: picks the subcommand, runs it, prints its output, returns the exit status.
///
/// Exit statuses: 0 success, 1 some input failed, 2 usage error (the message goes to stderr with a pointer
/// to `--help`).
struct PinholeCLI: Sendable {
    /// The version `pinhole --version` prints.
    static let version = "0.1.0"

    /// Makes the codecs for `pinhole thumbnail`, given the number of jobs (the decoder's thread count).
    let makeCodecs: @Sendable (_ jobs: Int) -> ThumbnailCommand.Codecs
    /// The libvips version, for `--version`.
    let codecVersion: String

    /// Runs the command line `arguments` (without the program name).
    func run(_ arguments: [String]) async -> Int32 {
        guard let verb = arguments.first else {
            return usageError(UsageError("no command given"), help: "pinhole --help")
        }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "--help", "-h", "help":
            print(Self.help)
            return 0
        case "--version":
            print("pinhole \(Self.version) (libvips \(codecVersion))")
            return 0
        case "thumbnail":
            return await thumbnail(rest)
        case "gallery":
            do {
                return try await GalleryCommand.run(rest)
            } catch {
                return usageError(error, help: "pinhole gallery --help")
            }
        case "serve":
            do {
                return try await ServeCommand.run(rest)
            } catch {
                return usageError(error, help: "pinhole serve --help")
            }
        case "bench":
            do {
                return try await BenchCommand.run(rest)
            } catch {
                return usageError(error, help: "pinhole bench --help")
            }
        case "debug":  // hidden: child processes of the reliability tests (DebugCommand)
            do { return try await DebugCommand.run(rest) } catch { return usageError(error, help: "pinhole --help") }
        default:
            return usageError(UsageError("unknown command '\(verb)'"), help: "pinhole --help")
        }
    }

    private func thumbnail(_ arguments: [String]) async -> Int32 {
        let configuration: ThumbnailCommand.Configuration
        do {
            configuration = try ThumbnailCommand.Configuration.parse(arguments)
        } catch {
            return usageError(error, help: "pinhole thumbnail --help")
        }
        if configuration.showsHelp {
            print(ThumbnailCommand.Configuration.help)
            return 0
        }
        if configuration.isBatch { return await batch(configuration) }
        let command = ThumbnailCommand(configuration: configuration, codecs: makeCodecs(configuration.jobs))
        var progressBar = ProgressBar()
        let report = await command.run { finished, failed, total in
            progressBar.update(finished: finished, failed: failed, total: total)
        }
        progressBar.finish()
        if configuration.json {
            do {
                print(try report.json())
            } catch {
                FileHandle.standardError.write(Data("pinhole: cannot encode the report: \(error)\n".utf8))
                return 1
            }
        } else {
            print(report.summary)
        }
        return report.exitStatus
    }

    private func usageError(_ error: UsageError, help: String) -> Int32 {
        FileHandle.standardError.write(Data("pinhole: error: \(error.message)\nSee '\(help)'.\n".utf8))
        return 2
    }

    /// The text `pinhole --help` prints.
    static let help = """
        USAGE: pinhole <command> [options]

        Pinhole's image pipeline on the command line: thumbnails of files, URLs and feeds with libvips,
        each source downloaded once, decoded and shrunk in one step.

        COMMANDS:
          thumbnail INPUT...   Make a thumbnail of every image in the given files, directories, http(s) URLs
                               and JSON Feed (--feed). See 'pinhole thumbnail --help' for its options.
          gallery [FEED]       Browse a JSON Feed (path or URL) with thumbnails in the terminal; without
                               FEED a 200-photo demo over loopback. See 'pinhole gallery --help'.
          serve                Serve thumbnails over HTTP at imgproxy-style signed URLs (libmicrohttpd).
                               See 'pinhole serve --help'.
          bench thumbnail [DIR] [--compare]
                               Thumbnails/s, CPU and memory against vipsthumbnail (and ImageMagick, Pillow,
                               pyvips and the TurboJPEG floor with --compare) over the photo corpus.
          bench pipeline       Memory-cache hit, overhead per request, coalescing, threads while waiting.
          bench scroll         The 200-row list: naive GCD vs ImageSlot + ImagePipeline.
          bench experiments    Chunked CPU work, concurrent waits, response delay under CPU load.
          bench serve [--compare|--overload]
                               pinhole serve under wrk (2K photos -> 512 px) against nginx image_filter.
          bench sizes|download|batch|animation|rss
                               The other benchmarks. See 'pinhole bench --help' for them all and their options.
          debug VERB           Probes the reliability tests run (memory-estimate, storm, ...).
                               See 'pinhole debug --help'.

        OPTIONS:
          --help, -h           Show this help.
          --version            Show the version of pinhole and of libvips.
        """
}
