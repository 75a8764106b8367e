import Foundation
import PinholeBench
import PinholeServer

/// `pinhole bench serve`: `pinhole serve` under wrk (``ServeBenchmark``).
enum BenchServeCommand {
    static let options: [OptionSpec] =
        [
            .flag("--compare", help: "Also run nginx's image_filter module on the same files and connection counts."),
            .flag("--json", help: "Print the figures as one JSON object (sorted keys)."),
            .value("--duration", "SECONDS", help: "Seconds of each timed wrk run. Default: 10."),
            .value("--files", "N", help: "Use at most N photos of the corpus. Default: all its JPEGs."),
            .flag("--unsigned", help: "Start the server with --allow-unsigned instead of a key. Default: signed URLs."),
        ] + overloadOptions + [.flag("--help", help: "Show this help (also -h).")]

    static let help = """
        USAGE: pinhole bench serve [CORPUS] [--compare] [--json] [--duration SECONDS] [--files N] [--unsigned]
               pinhole bench serve --overload [CORPUS] [--seconds S] [--memory-budget BYTES] [--queue-limit N]
                                   [--queue-timeout SECONDS] [--server-env NAME=VALUE]... [--json] [--files N]

        Every JPEG of CORPUS (default: $PINHOLE_CORPUS, else ~/.cache/pinhole/corpus) resized to 2048 px longest
        side (JPEG q85, vipsthumbnail) in a temporary directory, served by a loopback nginx origin; this very
        binary's 'pinhole serve' started fresh for each run (signed URLs with a random key, --concurrency = cores);
        wrk at 2, 8 and 64 connections for rs:fit:512:512 JPEG (@jpg) and negotiated WebP (Accept: image/webp):
          cold    every request a source URL not asked before (a unique query on the origin file)
          steady  one URL per photo, primed once, then asked again and again (cached answers)
        Per run: req/s, p50/p95/p99, the server's peak RSS (VmHWM), its CPU per request, the origin's requests.
        Also 'pinhole thumbnail --size 512 --jobs CORES' over the same files (the in-process rate), a hot-key
        round (500 requests over 10 uncached sources at 64 connections on a fresh server, then again cached),
        and issue 26's targets as ratios of figures of this run. Needs wrk, nginx, curl and vipsthumbnail.

        \(overloadHelp)

        OPTIONS:
        \(options.map { "  \($0.synopsis.padding(toLength: 24, withPad: " ", startingAt: 0)) \($0.help)" }
            .joined(separator: "\n"))
        """

    static func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentReader(options: options).read(arguments)
        if parsed.has("--help") {
            print(help)
            return 0
        }
        guard parsed.positionals.count <= 1 else { throw UsageError("at most one corpus directory") }
        let unsigned = parsed.has("--unsigned")
        let (keyHex, saltHex) = (randomHex(bytes: 32), randomHex(bytes: 16))
        let signer: URLSigner
        do {
            signer = try URLSigner(keyHex: keyHex, saltHex: saltHex)
        } catch {
            throw UsageError("cannot make a signing key: \(error)")
        }
        var configuration = ServeBenchmark.Configuration(
            corpus: parsed.positionals.first ?? BenchCommand.defaultCorpus,
            pinholeExecutable: BenchCommand.executablePath,
            signingArguments: unsigned ? ["--allow-unsigned"] : ["--key", keyHex, "--salt", saltHex],
            signed: !unsigned,
            sign: { path in unsigned ? "/unsigned" + path : signer.signedPath(path) })
        configuration.compare = parsed.has("--compare")
        configuration.seconds = try parsed.integer("--duration", default: 10, in: 1...3600)
        if parsed.string("--files") != nil {
            configuration.fileLimit = try parsed.integer("--files", default: 0, in: 10...100_000)
        }
        let json = parsed.has("--json")
        if parsed.has("--overload") {
            return await runOverload(configuration, settings: try overloadSettings(parsed), json: json)
        }
        do {
            let result = try await ServeBenchmark(configuration: configuration).run { line in
                if !json { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            }
            print(json ? try BenchCommand.json(result) : result.text)
            return 0
        } catch {
            FileHandle.standardError.write(Data("pinhole bench serve: \(error)\n".utf8))
            return 1
        }
    }

    /// `bytes` random bytes as lowercase hexadecimal.
    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
