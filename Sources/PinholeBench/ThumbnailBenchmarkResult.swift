import Foundation

/// The figures of a ``ThumbnailBenchmark`` run: `--json` prints it; ``text`` is the human table.
public struct ThumbnailBenchmarkResult: Sendable, Codable {
    /// One variant's throughput.
    public struct Throughput: Sendable, Codable {
        /// `pinhole thumbnail --jobs 2`, `vipsthumbnail, 1 process per image, 2 at a time`.
        public var name: String
        /// `pinhole` or `vipsthumbnail`.
        public var tool: String
        /// Images in flight at once.
        public var jobs: Int
        /// Images per second, one value per measured round.
        public var imagesPerSecond: Samples
        /// CPU seconds (user + system, all processes of the variant) per image, one value per measured round.
        public var cpuSecondsPerImage: Samples
        /// The highest peak RSS pinhole reported over the rounds, in bytes (`nil` for vipsthumbnail).
        public var peakRSSBytes: Int?
    }

    /// Peak RSS of single thumbnails in fresh processes.
    public struct Memory: Sendable, Codable {
        /// One file's probe.
        public struct Probe: Sendable, Codable {
            public var file: String
            /// Full size in pixels, as displayed.
            public var width: Int
            public var height: Int
            /// Peak RSS of the process that made this one thumbnail, in bytes (median of the probes).
            public var peakRSSBytes: Int
            /// ``peakRSSBytes`` minus the 1×1 reference's, in bytes.
            public var overReferenceBytes: Int
        }

        /// Peak RSS of a process that thumbnailed a 1×1 JPEG, in bytes.
        public var referencePeakRSSBytes: Int
        public var probes: [Probe]
    }

    public var corpus: String
    /// Image files in the corpus.
    public var images: Int
    /// Their total size in bytes.
    public var bytes: Int
    /// Thumbnail box in pixels.
    public var size: Int
    public var quality: Int
    public var runs: Int
    public var warmups: Int
    public var activeProcessors: Int
    public var throughput: [Throughput]
    public var memory: Memory
    /// Median pinhole images/s over median vipsthumbnail images/s, by job count (`"1"`, `"2"`).
    public var pinholeOverVipsthumbnail: [String: Double] = [:]
    /// Median images/s with the most jobs over that with 1 job, by tool (`"pinhole"`, `"vipsthumbnail"`).
    public var scaling: [String: Double] = [:]

    public init(
        corpus: String, images: Int, bytes: Int, size: Int, quality: Int, runs: Int, warmups: Int,
        activeProcessors: Int, throughput: [Throughput], memory: Memory
    ) {
        self.corpus = corpus
        self.images = images
        self.bytes = bytes
        self.size = size
        self.quality = quality
        self.runs = runs
        self.warmups = warmups
        self.activeProcessors = activeProcessors
        self.throughput = throughput
        self.memory = memory
        for jobs in Set(throughput.map(\.jobs)) {
            if let pinhole = median("pinhole", jobs: jobs), let vips = median("vipsthumbnail", jobs: jobs), vips > 0 {
                pinholeOverVipsthumbnail["\(jobs)"] = pinhole / vips
            }
        }
        for tool in ["pinhole", "vipsthumbnail"] {
            scaling[tool] = scaling(tool)
        }
    }

    /// Median images/s of `tool` with `jobs`, or `nil` when it was not measured.
    public func median(_ tool: String, jobs: Int) -> Double? {
        throughput.first { $0.tool == tool && $0.jobs == jobs }?.imagesPerSecond.median
    }

    /// Median of `tool` with the most jobs over median with 1 job.
    public func scaling(_ tool: String) -> Double? {
        guard let most = throughput.filter({ $0.tool == tool }).map(\.jobs).max(), most > 1,
            let many = median(tool, jobs: most), let one = median(tool, jobs: 1), one > 0
        else { return nil }
        return many / one
    }

    /// The human report.
    public var text: String {
        var lines = [
            "Thumbnail throughput: \(images) images (\(String(format: "%.1f", Double(bytes) / 1e6)) MB) from \(corpus)",
            "→ \(size) px JPEG q\(quality); median of \(runs) runs after \(warmups) warm-up; "
                + "\(activeProcessors) active processors",
            "",
            "  variant                                                 images/s   spread   CPU ms/image   peak RSS",
        ]
        for row in throughput {
            let peak = row.peakRSSBytes.map { String(format: "%.0f MB", Double($0) / 1e6) } ?? "-"
            lines.append(
                "  " + row.name.padding(toLength: 54, withPad: " ", startingAt: 0)
                    + String(
                        format: "%10.1f   ±%4.1f%%  %13.1f  %9@", row.imagesPerSecond.median,
                        row.imagesPerSecond.relativeSpread * 50, row.cpuSecondsPerImage.median * 1000, peak))
        }
        lines.append("")
        for jobs in Set(throughput.map(\.jobs)).sorted() {
            if let pinhole = median("pinhole", jobs: jobs), let vips = median("vipsthumbnail", jobs: jobs), vips > 0 {
                lines.append(
                    String(
                        format: "pinhole / vipsthumbnail at %d job%@: %.2f×", jobs, jobs == 1 ? "" : "s",
                        pinhole / vips))
            }
        }
        let cpu = { (tool: String) in
            self.throughput.first { $0.tool == tool && $0.jobs == 1 }?.cpuSecondsPerImage.median
        }
        if let pinhole = cpu("pinhole"), let vips = cpu("vipsthumbnail"), pinhole > 0 {
            lines.append(String(format: "CPU per image, vipsthumbnail / pinhole (1 job): %.2f×", vips / pinhole))
        }
        for tool in ["pinhole", "vipsthumbnail"] {
            if let scaling = scaling(tool) {
                let most = throughput.filter { $0.tool == tool }.map(\.jobs).max() ?? 1
                lines.append(String(format: "%@ scaling 1 → %d jobs: %.2f×", tool, most, scaling))
            }
        }
        lines.append("")
        lines.append(
            String(
                format: "Peak RSS, one thumbnail in a fresh process: 1×1 JPEG %.1f MB; over it:",
                Double(memory.referencePeakRSSBytes) / 1e6))
        for probe in memory.probes {
            let name = URL(fileURLWithPath: probe.file).lastPathComponent
            lines.append(
                String(
                    format: "  %@ (%d×%d, %.1f MP): %+.1f MB", name, probe.width, probe.height,
                    Double(probe.width * probe.height) / 1e6, Double(probe.overReferenceBytes) / 1e6))
        }
        return lines.joined(separator: "\n")
    }
}
