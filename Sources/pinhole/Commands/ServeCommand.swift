import Foundation
import Pinhole
import PinholeServer

/// `pinhole serve`: the thumbnail server (``ThumbnailServer`` on ``HTTPDaemon``) until SIGTERM or SIGINT, then a
/// drain: in-flight requests finish, new ones get 503, and the process exits 0.
enum ServeCommand {
    static let options: [OptionSpec] = [
        .value("--listen", "HOST:PORT", help: "Numeric address and port to listen on. Default: 127.0.0.1:8080."),
        .value("--key", "HEX", help: "Signing key, hexadecimal (or PINHOLE_KEY). Required unless --allow-unsigned."),
        .value("--salt", "HEX", help: "Signing salt, hexadecimal (or PINHOLE_SALT). Default: empty."),
        .flag("--allow-unsigned", help: "Serve URLs without a valid signature. Default: off (403)."),
        .value(
            "--allow-source", "PREFIX",
            help: "A source URL prefix that may reach private addresses (repeatable). Default: none."),
        .value("--cache-dir", "DIR", help: "Disk cache of sources and thumbnails. Default: none."),
        .value("--max-src-pixels", "N", help: "Most pixels a source may declare. Default: 50000000."),
        .value("--max-src-bytes", "N", help: "Most bytes read from a source. Default: 20000000."),
        .value(
            "--max-animation-frames", "N",
            help: "Most frames of an animated answer (an:1); more gives the first frame. Default: 256."
                + " A source that declares over \(SourcePolicy.untrustedMaxFrameCount) frames is refused"
                + " (422 too_many_frames), still answers too."),
        .value(
            "--max-animation-pixels", "N",
            help: "Most pixels of an animated answer's frames together. Default: 16000000."),
        .value("--concurrency", "N", help: "Decodes and encodes at once. Default: the core count."),
        .value(
            "--memory-budget", "BYTES",
            help: "Bytes for images: caches (3/8) and decodes and encodes in progress (5/8). Default: 256000000."),
        .value(
            "--active-limit", "N",
            help: "Answers made at once (downloading, decoding or encoding). Default: 2 x concurrency."),
        .value(
            "--queue-limit", "N",
            help: "Requests that may wait for one of the active places; more get 503. Default: 32 x cores."),
        .value("--queue-timeout", "SECONDS", help: "Longest wait for a place or for memory, then 503. Default: 5."),
        .value("--max-age", "SECONDS", help: "Cache-Control max-age of images. Default: 86400."),
        .value("--timeout", "SECONDS", help: "Deadline of one image's download, decode and encode. Default: 30."),
        .value("--sign", "PATH", help: "Print PATH (/OPTIONS/…/SOURCE) signed with the key and salt, and exit."),
        .flag("--help", help: "Show this help (also -h)."),
    ]

    static let help = """
        USAGE: pinhole serve [--listen HOST:PORT] [--key HEX --salt HEX | --allow-unsigned]
                             [--allow-source PREFIX]... [--cache-dir DIR] [options]

        Serves thumbnails at imgproxy-compatible processing URLs:
          /SIGNATURE/OPTIONS/plain/PERCENT-ENCODED-SOURCE[@EXT]
          /SIGNATURE/OPTIONS/BASE64URL-SOURCE[.EXT]
        SIGNATURE is base64url(HMAC-SHA256(key, salt + the path after it)), no padding (--sign makes one).
        OPTIONS, /-separated, each NAME:ARG:ARG (empty arguments keep their default):
          rs:TYPE:W:H:ENLARGE  resize (also resize:); TYPE fit (default), fill (cover, then crop) or fill-down
          s:W:H:ENLARGE        size (also size:)      rt:TYPE   resizing type      w:W  h:H   box in pixels
                               (0 = from the aspect ratio; at most 4096 after dpr)
          el:1|0               enlarge images smaller than the box (default 0)
          g:GRAVITY            where a fill crops: ce (default), no, so, ea, we, noea, nowe, soea, sowe, sm (smart)
          q:1-100              quality (default 80)   f:jpg|png|webp|avif|gif   format (also format:, ext:, @EXT, .EXT)
          dpr:X                multiplies W and H (0 < X <= 8)    cb:TEXT   cache buster (changes the URL only)
          an:1|0               keep an animated GIF/WebP's animation (also animated:; da:0 = an:1): as WebP or
                               GIF (f:webp|gif, or WebP when Accept names it, else GIF); other formats, or
                               sources past --max-animation-frames/--max-animation-pixels, get the first frame
        Without f or EXT the format follows Accept (q-values; Vary: Accept): the best of the types it names, WebP
        before AVIF before JPEG when equal; */* alone gives JPEG, and an image with alpha is never JPEG (PNG).
        Sources must resolve to public addresses (checked at every connection, redirects too) unless they lie
        under an --allow-source prefix. GET /health and GET /metrics (Prometheus). One JSON line per request
        on stdout. SIGTERM or SIGINT drains: requests in flight finish, new ones get 503, then exit 0; a second
        signal exits at once with status 1.

        OPTIONS:
        \(options.map { "  \($0.synopsis.padding(toLength: 24, withPad: " ", startingAt: 0)) \($0.help)" }
            .joined(separator: "\n"))
        """

    /// Parses `arguments` into a configuration.
    ///
    /// - Throws: ``UsageError`` for a malformed value, a missing key without `--allow-unsigned`, or a bad prefix.
    static func configuration(
        _ parsed: ParsedArguments, environment: [String: String]
    ) throws(UsageError) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        let listen = parsed.string("--listen") ?? "127.0.0.1:8080"
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
            (0...65535).contains(port)
        else { throw UsageError("--listen needs HOST:PORT, not '\(listen)'") }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        configuration.daemon.host = host == "localhost" ? "127.0.0.1" : host
        configuration.daemon.port = port
        configuration.allowsUnsigned = parsed.has("--allow-unsigned")
        if let key = parsed.string("--key") ?? environment["PINHOLE_KEY"] {
            do {
                configuration.signer = try URLSigner(
                    keyHex: key, saltHex: parsed.string("--salt") ?? environment["PINHOLE_SALT"] ?? "")
            } catch {
                throw UsageError("--key/--salt: \(error)")
            }
        } else if !configuration.allowsUnsigned {
            throw UsageError("give --key HEX (or PINHOLE_KEY), or --allow-unsigned")
        }
        for text in parsed.strings("--allow-source") {
            guard let prefix = SourcePrefix(text) else {
                throw UsageError("--allow-source needs an absolute http(s) URL, not '\(text)'")
            }
            configuration.allowedSources.append(prefix)
        }
        configuration.cacheDirectory = parsed.string("--cache-dir").map { URL(fileURLWithPath: $0) }
        configuration.maxSourcePixels = try parsed.integer(
            "--max-src-pixels", default: configuration.maxSourcePixels, in: 1...1_000_000_000)
        configuration.maxSourceBytes = try parsed.integer(
            "--max-src-bytes", default: configuration.maxSourceBytes, in: 1...1_000_000_000)
        configuration.maxAnimationFrames = try parsed.integer(
            "--max-animation-frames", default: configuration.maxAnimationFrames, in: 1...100_000)
        configuration.maxAnimationPixels = try parsed.integer(
            "--max-animation-pixels", default: configuration.maxAnimationPixels, in: 1...1_000_000_000)
        configuration.concurrency = try parsed.integer(
            "--concurrency", default: configuration.concurrency, in: 1...256)
        configuration.memoryBudget = try parsed.integer(
            "--memory-budget", default: configuration.memoryBudget, in: 1_000_000...1 << 40)
        if parsed.string("--active-limit") != nil {
            configuration.activeLimit = try parsed.integer("--active-limit", default: 1, in: 1...100_000)
        }
        configuration.queueLimit = try parsed.integer(
            "--queue-limit", default: configuration.queueLimit, in: 0...100_000)
        if let text = parsed.string("--queue-timeout") {
            guard let seconds = ParsedArguments.plainDecimal(text), seconds.isFinite, (0...600).contains(seconds) else {
                throw UsageError("--queue-timeout takes seconds from 0 to 600, not \(text)")
            }
            configuration.queueTimeout = .milliseconds(Int((seconds * 1000).rounded()))
        }
        configuration.maxAge = try parsed.integer("--max-age", default: configuration.maxAge, in: 0...31_536_000)
        configuration.timeout = .seconds(try parsed.integer("--timeout", default: 30, in: 1...3600))
        return configuration
    }

    /// Parses `arguments`, serves until a signal, drains; returns the exit status.
    static func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentReader(options: options).read(arguments)
        if parsed.has("--help") {
            print(help)
            return 0
        }
        guard parsed.positionals.isEmpty else { throw UsageError("serve takes no positional arguments") }
        let configuration = try configuration(parsed, environment: ProcessInfo.processInfo.environment)
        if let path = parsed.string("--sign") {
            guard path.hasPrefix("/"), let signer = configuration.signer else {
                throw UsageError("--sign needs a PATH starting with / and a --key (or PINHOLE_KEY)")
            }
            do {
                _ = try ProcessingURL.parse(Substring("/_" + path))
            } catch {
                throw UsageError("--sign: the server would refuse this path: \(error)")
            }
            print(signer.signedPath(path))
            return 0
        }
        return await ServeRunner(configuration: configuration).run()
    }
}
