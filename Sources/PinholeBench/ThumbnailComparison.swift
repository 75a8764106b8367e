import Foundation
import Pinhole

/// `pinhole bench thumbnail --compare`: Pinhole against the thumbnailers people use, over a corpus of real photos
/// → `size`-pixel JPEG at `quality`, upright, metadata stripped, all measured in one run and interleaved round by
/// round (every variant once per round) so machine noise hits all alike.
///
/// Variants, each with 1 job and with ``Configuration/jobs`` jobs (jobs = processes or threads at once):
/// - `pinhole`: `pinhole thumbnail DIR --jobs J` (one process); `pinhole-jpeg`: the same over the JPEGs only, the
///   figure the floor is compared with;
/// - `vipsthumbnail`: one process per image, J at a time; `vipsthumbnail-batch`: J processes, each given every
///   J-th file;
/// - `imagemagick`: `convert -define jpeg:size=2S×2S FILE -auto-orient -thumbnail S×S -strip`, one process per
///   image, J at a time;
/// - `pillow-draft`, `pyvips`: `scripts/bench-thumbnail.py` in the private venv of `scripts/bench-venv.sh`, J
///   processes each given every J-th file;
/// - `turbojpeg-floor`: TurboJPEG's 1/8-scale decode of each JPEG alone (file read included), on J threads in
///   this process: no resize, no encode.
///
/// libvips tools run with `VIPS_CONCURRENCY=1` and ImageMagick with `MAGICK_THREAD_LIMIT=1`, so that J jobs use
/// J cores as Pinhole's do. CPU time and peak RSS of child processes come from `/usr/bin/time` (sum of user +
/// system over the processes; largest maximum RSS); the floor's from `getrusage(RUSAGE_SELF)` and this process's
/// peak. A benchmark, not a test: it asserts only that every variant made every thumbnail.
public struct ThumbnailComparison: Sendable {
    /// What to compare and how often.
    public struct Configuration: Sendable {
        /// The corpus directory (image files found by content).
        public var corpus: String
        /// The `pinhole` executable (normally the running one).
        public var pinholeExecutable: String
        /// The repository's `scripts` directory (bench-venv.sh, bench-thumbnail.py).
        public var scriptsDirectory: String
        /// Longest side in pixels; 360 by default.
        public var size = 360
        /// JPEG quality; 80 by default.
        public var quality = 80
        /// Measured rounds (the median is reported); 3 by default.
        public var runs = 3
        /// Unmeasured rounds first; 1 by default.
        public var warmups = 1
        /// The job count compared with 1 job; the active processor count by default.
        public var jobs = ProcessInfo.processInfo.activeProcessorCount

        public init(corpus: String, pinholeExecutable: String, scriptsDirectory: String) {
            self.corpus = corpus
            self.pinholeExecutable = pinholeExecutable
            self.scriptsDirectory = scriptsDirectory
        }
    }

    /// One program, or the floor, measured at one job count.
    struct Variant: Hashable {
        var tool: ThumbnailComparisonResult.Tool
        var jobs: Int
    }

    /// What one round of one variant measured.
    struct Measurement {
        var seconds: Double
        var cpuSeconds: Double
        var peakRSSBytes: Int
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Runs the comparison; `log` receives one line per finished round.
    ///
    /// - Throws: ``PinholeError`` when the corpus has no images, the venv cannot be made, or a variant fails to
    ///   make every thumbnail.
    public func run(log: @Sendable (String) -> Void = { _ in }) async throws -> ThumbnailComparisonResult {
        let python = try await preparePython()
        let stage = try await WorkerThreadPool.io.run { [configuration] in try Stage(corpus: configuration.corpus) }
        defer { stage.remove() }
        let jobCounts = Array(Set([1, configuration.jobs])).sorted()
        let variants = ThumbnailComparisonResult.Tool.allCases.flatMap { tool in
            jobCounts.map { Variant(tool: tool, jobs: $0) }
        }
        var rounds: [Variant: [Measurement]] = [:]
        for round in 0..<(configuration.warmups + configuration.runs) {
            var line: [String] = []
            for variant in variants {
                let files = variant.tool.isJPEGOnly ? stage.jpegs : stage.all
                let measured = try await measure(variant, files: files, stage: stage, python: python)
                line.append(
                    "\(variant.tool.rawValue)×\(variant.jobs) "
                        + String(format: "%.1f", Double(files.count) / measured.seconds))
                if round >= configuration.warmups { rounds[variant, default: []].append(measured) }
            }
            let label = round < configuration.warmups ? "warm-up" : "run \(round - configuration.warmups + 1)"
            log("\(label): images/s " + line.joined(separator: "; "))
        }
        let rows = variants.map { variant in
            let files = variant.tool.isJPEGOnly ? stage.jpegs.count : stage.all.count
            let measured = rounds[variant] ?? []
            return ThumbnailComparisonResult.Row(
                tool: variant.tool, jobs: variant.jobs,
                imagesPerSecond: Samples(measured.map { Double(files) / $0.seconds }),
                cpuSecondsPerImage: Samples(measured.map { $0.cpuSeconds / Double(files) }).median,
                peakRSSBytes: measured.map(\.peakRSSBytes).max() ?? 0)
        }
        return ThumbnailComparisonResult(
            corpus: configuration.corpus, images: stage.all.count, jpegs: stage.jpegs.count,
            size: configuration.size, quality: configuration.quality, runs: configuration.runs,
            warmups: configuration.warmups, activeProcessors: ProcessInfo.processInfo.activeProcessorCount,
            rows: rows)
    }

    /// The venv's python3, made by `scripts/bench-venv.sh` when absent.
    private func preparePython() async throws -> String {
        let result = try await ChildProcess.run(
            "/bin/sh", [configuration.scriptsDirectory + "/bench-venv.sh"], capturesOutput: true)
        let python = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !python.isEmpty else {
            throw PinholeError(.decodingFailed, "scripts/bench-venv.sh failed (exit \(result.status))")
        }
        return python
    }
}
