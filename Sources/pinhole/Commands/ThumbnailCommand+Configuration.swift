import Foundation
import Pinhole

extension ThumbnailCommand {
    /// What `pinhole thumbnail` was asked to do, parsed and checked.
    struct Configuration: Sendable, Equatable {
        /// Files, directories and http(s) URLs, as typed.
        var inputs: [String]
        /// A JSON Feed (path or http(s) URL) whose items' images are inputs too.
        var feed: String?
        /// Directory of the pipeline's disk cache of original bytes (HTTP sources), if any.
        var cacheDirectory: String?
        /// Longest side of each thumbnail, in pixels; 360 by default.
        var size: Int = 360
        /// The sizes after the first of `--size 64,320,1080` (pixels): each input then gives one output per size,
        /// made by one ``ImagePipeline/images(for:sizes:)`` call. Empty for a single size.
        var extraSizes: [Int] = []
        /// Format of the thumbnail files; JPEG by default.
        var format: ImageFormat = .jpeg
        /// Encoder quality 1…100 for JPEG and WebP; 80 by default.
        var quality: Int = 80
        /// Directory the thumbnails are written to; `./thumbnails` by default.
        var outputDirectory: String = "thumbnails"
        /// Images decoded at once (the pipeline's processing limit); the active processor count by default.
        var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
        /// Inputs in flight beyond ``jobs``: each reads its file (or downloads) while the others decode, so a
        /// decoder never waits for a read or a write. 1 by default: on the 2-core corpus run, 3-4 % less wall
        /// time at 2 jobs and about 2 % at 1 job, for 2-7 MB more peak RSS (BENCHMARKS.md, 2026-12-01). Decodes
        /// at once stay at ``jobs``.
        var readAhead = 1
        /// Where to write one image of all thumbnails in a grid, if anywhere.
        var contactSheet: String?
        /// Print one JSON object instead of the human summary.
        var json = false
        /// Treat inputs as untrusted (`--untrusted`): public http(s) hosts and files under ``allowedRoot`` only,
        /// limits always on (``ImagePipeline/Configuration/sourcePolicy``).
        var untrusted = false
        /// The directory untrusted inputs must lie in (symlinks resolved); the current directory by default.
        var allowedRoot: String = "."
        /// Show the help and do nothing else.
        var showsHelp = false
        /// The box, content mode, scale, headers and offline flag of every request (ThumbnailCommand+RequestOptions).
        var request = RequestFlags()
        /// A file of inputs, one per line, read as the run goes (`-`: stdin); see ``batchOptions``.
        var inputList: String?
        /// This process's share of the inputs (`--shard`), if any.
        var shard: ShardSelector?
        /// Leave inputs whose output is already whole alone (`--skip-existing`).
        var skipsExisting = false
        /// Print one JSON object per input as it finishes, then a summary line (`--jsonl`).
        var jsonLines = false

        /// The formats `--format` accepts and the file extension each gets.
        static let formats: [(name: String, format: ImageFormat, fileExtension: String)] = [
            ("jpeg", .jpeg, "jpg"), ("png", .png, "png"), ("webp", .webp, "webp"), ("gif", .gif, "gif"),
        ]

        static let options: [OptionSpec] =
            [
                .value(
                    "--size", "PIXELS",
                    help: "Longest side of each thumbnail in pixels, 1-16384; smaller images "
                        + "are not upscaled. Several sizes (--size 64,320,1080) give one output per size "
                        + "from one load and, per format, one decode. Default: 360."),
                .value(
                    "--format", "FORMAT",
                    help: "Format of the thumbnail files: jpeg, png, webp or gif. Default: jpeg."),
                .value(
                    "--quality", "Q", help: "Encoder quality for jpeg and webp, 1-100 (ignored for png). Default: 80."),
                .value(
                    "--out", "DIR",
                    help: "Directory the thumbnails are written to (created if missing). "
                        + "Default: ./thumbnails."),
                .value(
                    "--jobs", "N",
                    help: "Images decoded at the same time, 1-256 (one more is read meanwhile). "
                        + "Default: the number of active "
                        + "processors (\(ProcessInfo.processInfo.activeProcessorCount) here)."),
                .value(
                    "--contact-sheet", "FILE",
                    help: "Also write one image of all thumbnails in a grid to FILE; its "
                        + "format follows the extension (.jpg, .jpeg, .png or .webp)."),
                .value(
                    "--feed", "FEED",
                    help: "A JSON Feed 1.1 document (path or http(s) URL); the image of every item "
                        + "is an input too."),
                .value(
                    "--cache-dir", "DIR",
                    help: "Keep the thumbnails of URLs (encoded, with their originals' HTTP freshness) and the "
                        + "originals in a disk cache in DIR (LRU, 150 MB): a second run over the same URLs and sizes "
                        + "downloads and decodes nothing while they are fresh, and revalidates them when stale. An "
                        + "unusable DIR is reported and skipped."),
                .flag(
                    "--untrusted",
                    help: "Treat inputs as untrusted: only http(s) URLs whose host is public (checked again at every "
                        + "redirect; loopback, private and link-local addresses in any spelling are refused) and files "
                        + "under --allowed-root (symbolic links resolved, '..' refused); at most 100 megapixels and 50 "
                        + "MB each. A refused input fails with kind untrusted_source. Untrusted bytes are decoded only "
                        + "as JPEG, PNG, GIF, WebP, HEIF/AVIF or TIFF, each by its own libvips loader (others, "
                        + "JPEG XL, BMP and SVG among them, fail with kind unsupported_format)."),
                .value(
                    "--allowed-root", "DIR",
                    help: "The directory untrusted inputs must be in. Default: the current "
                        + "directory."),
                .flag(
                    "--json",
                    help: "Print one JSON object (sorted keys) on stdout instead of the human summary; each "
                        + "output has its ThumbHash (thumbhash, base64; a batch run lists no outputs)."),
                .flag("--help", help: "Show this help (also -h)."),
            ] + batchOptions + requestOptions

        /// Parses the arguments after `thumbnail`.
        ///
        /// - Throws: ``UsageError`` for unknown options, bad values, a contact sheet with an unknown extension,
        ///   or no inputs (unless `--help` was given).
        static func parse(
            _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment
        ) throws(UsageError) -> Configuration {
            let parsed = try ArgumentReader(options: options).read(arguments)
            var configuration = Configuration(inputs: parsed.positionals)
            configuration.showsHelp = parsed.has("--help")
            if configuration.showsHelp { return configuration }
            configuration.feed = parsed.string("--feed")
            configuration.cacheDirectory = parsed.string("--cache-dir")
            let hasList = parsed.string("--input-list") != nil
            guard !configuration.inputs.isEmpty || configuration.feed != nil || hasList else {
                throw UsageError("no inputs: give at least one file, directory or URL, --feed or --input-list")
            }
            let sizes = try parseSizes(parsed.string("--size"))
            configuration.size = sizes[0]
            configuration.extraSizes = Array(sizes.dropFirst())
            let formatName = try parsed.choice("--format", default: "jpeg", in: formats.map(\.name))
            configuration.format = formats.first { $0.name == formatName }?.format ?? .jpeg
            configuration.quality = try parsed.integer("--quality", default: 80, in: 1...100)
            if let out = parsed.string("--out") {
                // "out/" and "out" name the same directory; keep output paths free of "//".
                let trimmed = String(out.reversed().drop { $0 == "/" }.reversed())
                configuration.outputDirectory = trimmed.isEmpty ? "/" : trimmed
            }
            configuration.jobs = try parsed.integer("--jobs", default: configuration.jobs, in: 1...256)
            configuration.json = parsed.has("--json")
            configuration.untrusted = parsed.has("--untrusted")
            if let root = parsed.string("--allowed-root") {
                guard configuration.untrusted else { throw UsageError("--allowed-root needs --untrusted") }
                configuration.allowedRoot = root
            }
            if let sheet = parsed.string("--contact-sheet") {
                guard contactSheetFormat(for: sheet) != nil else {
                    throw UsageError(
                        "--contact-sheet: unknown extension of '\(sheet)' (use .jpg, .jpeg, .png or .webp)")
                }
                configuration.contactSheet = sheet
            }
            try configuration.parseBatchOptions(parsed, environment: environment)
            try configuration.parseRequestOptions(parsed)
            try configuration.checkSeveralSizes()
            return configuration
        }

        /// The format of a contact sheet written to `path`, from its extension; `nil` for an unknown one.
        static func contactSheetFormat(for path: String) -> ImageFormat? {
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "jpg", "jpeg": .jpeg
            case "png": .png
            case "webp": .webp
            default: nil
            }
        }

        /// The file extension of thumbnails in ``format`` (`jpg`, `png`, `webp`).
        var fileExtension: String {
            Self.formats.first { $0.format == format }?.fileExtension ?? format.name
        }

        /// The text `pinhole thumbnail --help` prints.
        static var help: String {
            var lines = [
                "USAGE: pinhole thumbnail INPUT... [--feed FEED] [--size PIXELS[,PIXELS...]]",
                "                         [--format jpeg|png|webp|gif] [--animated] [--quality Q] [--out DIR]",
                "                         [--jobs N]",
                "                         [--contact-sheet FILE]",
                "                         [--cache-dir DIR] [--json] [--untrusted [--allowed-root DIR]]",
                "                         [--width W --height H [--fit | --fill [--crop centre|attention|entropy]]]",
                "                         [--scale S] [--header 'NAME: VALUE']... [--offline]",
                "       pinhole thumbnail --input-list FILE|- [--shard I/N|auto/N] [--skip-existing] [--jsonl]",
                "                         [OPTIONS]",
                "",
                "Makes a thumbnail of every image in INPUT... with libvips (shrink-on-load, EXIF orientation",
                "applied, colour converted to sRGB, metadata stripped), through Pinhole's pipeline: the same",
                "URL asked for twice is downloaded once (coalescing and the memory cache).",
                "",
                "ARGUMENTS:",
                "  INPUT...   Image files, directories and http(s) URLs. Directories are searched recursively "
                    + "in sorted",
                "             order, skipping hidden files and the output directory. Images are recognised by",
                "             their content (magic bytes), not their extension. A file named here that is",
                "             not an image is reported as an error; non-image files found while searching a",
                "             directory are skipped silently. An argument that is neither a path nor a valid",
                "             http(s) or file URL is reported as invalid_input. The largest files start",
                "             first (so a run does not end on one large photo); results are reported in",
                "             input order.",
                "",
                "OPTIONS:",
            ]
            for option in options {
                lines.append(contentsOf: helpLines(for: option))
            }
            lines += batchHelp
            lines += [
                "",
                "OUTPUT NAMES:",
                "  The path of each image relative to the INPUT it was found under, with '/' replaced by '__',",
                "  its extension replaced by '.PIXELS.EXT': photos/2024/a.jpg given as 'photos' becomes",
                "  2024__a.360.jpg. Names that would collide get -2, -3, ... in input order, so names are",
                "  the same on every run with the same inputs. A name over 255 bytes is shortened and ends",
                "  with ~ and 8 hex digits of a hash of the full name. With several sizes each input gives",
                "  one file per size (a.64.jpg, a.320.jpg, a.1080.jpg).",
                "",
                "EXIT STATUS:",
                "  0 every image succeeded, 1 at least one input failed, 2 usage error.",
            ]
            return lines.joined(separator: "\n")
        }

        /// `  --size PIXELS   help text…`, wrapped to 100 columns.
        private static func helpLines(for option: OptionSpec) -> [String] {
            let indent = 26
            var lines: [String] = []
            var line = "  " + option.synopsis
            line += String(repeating: " ", count: max(1, indent - line.count))
            for word in option.help.split(separator: " ") {
                if line.count + word.count + 1 > 100 && line.count > indent {
                    lines.append(line)
                    line = String(repeating: " ", count: indent)
                }
                line += (line.hasSuffix(" ") ? "" : " ") + word
            }
            lines.append(line)
            return lines
        }
    }
}
