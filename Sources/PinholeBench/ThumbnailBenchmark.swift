import Foundation
import Pinhole
import PinholeShared

/// Thumbnails per second over a corpus of real photos: `pinhole thumbnail` (one process over the corpus) with
/// 1 and with N jobs, against `vipsthumbnail` run one process per image, 1 and N at a time, all measured in
/// the same run and interleaved round by round so machine noise hits every variant alike. Then the peak
/// RSS of single thumbnails, each in a fresh process (`pinhole bench rss FILE`), over that of a 1×1 JPEG.
///
/// Every variant writes `size`-pixel JPEG files at `quality` with metadata stripped. A benchmark, not a test:
/// it reports figures and ratios; it asserts only that every variant made every thumbnail.
public struct ThumbnailBenchmark: Sendable {
    /// What to measure and how often.
    public struct Configuration: Sendable {
        /// The corpus directory (image files found by content).
        public var corpus: String
        /// The `pinhole` executable to measure (normally the running one).
        public var pinholeExecutable: String
        /// The reference: `vipsthumbnail` from libvips-tools.
        public var vipsthumbnailExecutable = "/usr/bin/vipsthumbnail"
        /// Longest side in pixels; 360 by default.
        public var size = 360
        /// JPEG quality; 80 by default.
        public var quality = 80
        /// Measured rounds (the median is reported); 5 by default.
        public var runs = 5
        /// Unmeasured rounds first; 1 by default.
        public var warmups = 1
        /// Job counts to compare; 1 and the active processor count by default.
        public var jobCounts: [Int] = Array(Set([1, ProcessInfo.processInfo.activeProcessorCount])).sorted()
        /// Files whose single-thumbnail peak RSS is measured against a 1×1 JPEG.
        public var rssFiles: [String] = []
        /// Files re-encoded to HEIC for the RSS probes (`vips copy FILE NAME.heic[Q=80]`, libvips-tools), in a
        /// temporary directory: the corpus has no HEIC of its own. None by default.
        public var heicSources: [String] = []
        /// The `vips` executable that re-encodes ``heicSources``.
        public var vipsExecutable = "/usr/bin/vips"
        /// Rounds of each RSS probe (the median is reported); 3 by default.
        public var rssRuns = 3

        public init(corpus: String, pinholeExecutable: String) {
            self.corpus = corpus
            self.pinholeExecutable = pinholeExecutable
        }
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// One way of making the corpus's thumbnails.
    enum Variant: Hashable {
        case pinhole(jobs: Int)
        case vipsthumbnail(jobs: Int)

        var name: String {
            switch self {
            case .pinhole(let jobs): "pinhole thumbnail --jobs \(jobs)"
            case .vipsthumbnail(let jobs): "vipsthumbnail, 1 process per image, \(jobs) at a time"
            }
        }
    }

    /// Runs the whole benchmark; `log` receives one line per finished round (for a terminal).
    ///
    /// - Throws: ``PinholeError`` when the corpus has no images or a variant fails to make every thumbnail.
    public func run(log: @Sendable (String) -> Void = { _ in }) async throws -> ThumbnailBenchmarkResult {
        let images = try await WorkerThreadPool.io.run { [configuration] in try Self.listImages(configuration.corpus) }
        guard !images.isEmpty else { throw PinholeError(.fileNotFound, "no images in \(configuration.corpus)") }
        let bytes = try await WorkerThreadPool.io.run { Self.totalBytes(images) }
        let variants = configuration.jobCounts.map(Variant.pinhole) + configuration.jobCounts.map(Variant.vipsthumbnail)
        var samples: [Variant: Samples] = [:]
        var cpu: [Variant: Samples] = [:]
        var peaks: [Variant: Int] = [:]
        for round in 0..<(configuration.warmups + configuration.runs) {
            var line: [String] = []
            for variant in variants {
                let measured = try await measure(variant, images: images)
                line.append(String(format: "%.1f", measured.imagesPerSecond))
                guard round >= configuration.warmups else { continue }
                samples[variant, default: Samples()].append(measured.imagesPerSecond)
                cpu[variant, default: Samples()].append(measured.cpuSecondsPerImage)
                if let peak = measured.peakRSSBytes { peaks[variant] = max(peaks[variant] ?? 0, peak) }
            }
            let label = round < configuration.warmups ? "warm-up" : "run \(round - configuration.warmups + 1)"
            log("\(label): images/s " + zip(variants, line).map { "\($0.name): \($1)" }.joined(separator: "; "))
        }
        let throughput = variants.map { variant in
            ThumbnailBenchmarkResult.Throughput(
                name: variant.name, tool: variant.tool, jobs: variant.jobs,
                imagesPerSecond: samples[variant] ?? Samples(), cpuSecondsPerImage: cpu[variant] ?? Samples(),
                peakRSSBytes: peaks[variant])
        }
        let memory = try await measureMemory()
        return ThumbnailBenchmarkResult(
            corpus: configuration.corpus, images: images.count, bytes: bytes, size: configuration.size,
            quality: configuration.quality, runs: configuration.runs, warmups: configuration.warmups,
            activeProcessors: ProcessInfo.processInfo.activeProcessorCount, throughput: throughput, memory: memory)
    }

    /// One round of one variant: images per second over the whole corpus, CPU seconds per image (all child
    /// processes, user + system), and the peak RSS when known.
    private func measure(_ variant: Variant, images: [String]) async throws
        -> (imagesPerSecond: Double, cpuSecondsPerImage: Double, peakRSSBytes: Int?)
    {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pinhole-bench-\(UUID())").path
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let clock = ContinuousClock()
        let start = clock.now
        let cpuBefore = ProcessStats.childCPUSeconds()
        var peak: Int?
        switch variant {
        case .pinhole(let jobs):
            let result = try await ChildProcess.run(
                configuration.pinholeExecutable,
                [
                    "thumbnail", configuration.corpus, "--size", "\(configuration.size)", "--format", "jpeg",
                    "--quality", "\(configuration.quality)", "--jobs", "\(jobs)", "--out", output, "--json",
                ],
                capturesOutput: true)
            let report = try JSONDecoder().decode(CLIReport.self, from: Data(result.standardOutput.utf8))
            guard result.status == 0, report.succeeded == images.count else {
                throw PinholeError(.decodingFailed, "\(variant.name): \(report.succeeded) of \(images.count) made")
            }
            peak = report.peakRSSBytes
        case .vipsthumbnail(let jobs):
            try await runVipsthumbnail(images, into: output, jobs: jobs)
        }
        let seconds = (clock.now - start) / .seconds(1)
        let cpuSeconds = ProcessStats.childCPUSeconds() - cpuBefore
        let written = try FileManager.default.contentsOfDirectory(atPath: output).count
        guard written == images.count else {
            throw PinholeError(.decodingFailed, "\(variant.name) wrote \(written) of \(images.count) thumbnails")
        }
        return (Double(images.count) / seconds, cpuSeconds / Double(images.count), peak)
    }

    /// `vipsthumbnail FILE --size SxS -o OUT/%s.jpg[Q=q,strip]`, one process per image, `jobs` at a time.
    private func runVipsthumbnail(_ images: [String], into output: String, jobs: Int) async throws {
        let executable = configuration.vipsthumbnailExecutable
        let size = configuration.size
        let quality = configuration.quality
        try await withThrowingTaskGroup(of: Int32.self) { group in
            var next = 0
            func startNext() {
                guard next < images.count else { return }
                // Distinct output names: the index keeps same-named files apart.
                let file = images[next]
                let pattern = "\(output)/\(next)-%s.jpg[Q=\(quality),strip]"
                group.addTask {
                    try await ChildProcess.run(executable, [file, "--size", "\(size)x\(size)", "-o", pattern]).status
                }
                next += 1
            }
            for _ in 0..<min(jobs, images.count) { startNext() }
            while let status = try await group.next() {
                guard status == 0 else { throw PinholeError(.decodingFailed, "vipsthumbnail exited with \(status)") }
                startNext()
            }
        }
    }

    /// The subset of `pinhole thumbnail --json` the benchmark reads.
    private struct CLIReport: Decodable {
        var succeeded: Int
        var peakRSSBytes: Int
    }
}

extension ThumbnailBenchmark.Variant {
    var tool: String {
        switch self {
        case .pinhole: "pinhole"
        case .vipsthumbnail: "vipsthumbnail"
        }
    }

    var jobs: Int {
        switch self {
        case .pinhole(let jobs), .vipsthumbnail(let jobs): jobs
        }
    }
}
