import Foundation

/// The figures of a ``ThumbnailComparison`` run. Encodes (for `--json`) as
/// `{"pinhole": {...}, "tools": [{"name", "jobs", "imagesPerSecond", "cpuSecondsPerImage", "peakRSSBytes",
/// "pinholeSpeedup"}, ...]}`; ``text`` is the human table.
public struct ThumbnailComparisonResult: Sendable, Encodable {
    /// The programs compared (raw values are the JSON names).
    public enum Tool: String, Sendable, Hashable, CaseIterable, Encodable {
        case pinhole
        /// Pinhole over the JPEG files only: what the floor is compared with.
        case pinholeJPEG = "pinhole-jpeg"
        case vipsthumbnail
        case vipsthumbnailBatch = "vipsthumbnail-batch"
        case imagemagick
        case pillowDraft = "pillow-draft"
        case pyvips
        case turbojpegFloor = "turbojpeg-floor"

        /// Whether the tool runs over the JPEG files only.
        var isJPEGOnly: Bool { self == .pinholeJPEG || self == .turbojpegFloor }

        /// The Pinhole figure this tool is compared with.
        var reference: Tool { isJPEGOnly ? .pinholeJPEG : .pinhole }
    }

    /// One tool at one job count.
    public struct Row: Sendable {
        public var tool: Tool
        /// Processes or threads at once.
        public var jobs: Int
        /// Images per second, one value per measured round.
        public var imagesPerSecond: Samples
        /// CPU seconds (user + system) per image, median over the rounds.
        public var cpuSecondsPerImage: Double
        /// The largest peak RSS of one process over the rounds, in bytes (the floor: the benchmark process's).
        public var peakRSSBytes: Int

        public init(tool: Tool, jobs: Int, imagesPerSecond: Samples, cpuSecondsPerImage: Double, peakRSSBytes: Int) {
            self.tool = tool
            self.jobs = jobs
            self.imagesPerSecond = imagesPerSecond
            self.cpuSecondsPerImage = cpuSecondsPerImage
            self.peakRSSBytes = peakRSSBytes
        }
    }

    public var corpus: String
    /// Images in the corpus, and how many of them are JPEG.
    public var images: Int
    public var jpegs: Int
    /// Thumbnail box in pixels; JPEG quality.
    public var size: Int
    public var quality: Int
    public var runs: Int
    public var warmups: Int
    public var activeProcessors: Int
    public var rows: [Row]

    public init(
        corpus: String, images: Int, jpegs: Int, size: Int, quality: Int, runs: Int, warmups: Int,
        activeProcessors: Int, rows: [Row]
    ) {
        self.corpus = corpus
        self.images = images
        self.jpegs = jpegs
        self.size = size
        self.quality = quality
        self.runs = runs
        self.warmups = warmups
        self.activeProcessors = activeProcessors
        self.rows = rows
    }

    /// The row of `tool` at `jobs`.
    public func row(_ tool: Tool, jobs: Int) -> Row? {
        rows.first { $0.tool == tool && $0.jobs == jobs }
    }

    /// Pinhole's median images/s over `tool`'s at the same job count (for JPEG-only tools, Pinhole's over the
    /// JPEGs); above 1 when Pinhole is faster.
    public func pinholeSpeedup(_ tool: Tool, jobs: Int) -> Double? {
        guard let pinhole = row(tool.reference, jobs: jobs), let other = row(tool, jobs: jobs),
            other.imagesPerSecond.median > 0
        else { return nil }
        return pinhole.imagesPerSecond.median / other.imagesPerSecond.median
    }

    /// The tool's CPU seconds per image over Pinhole's at the same job count (JPEG-only tools against Pinhole on
    /// the JPEGs); above 1 when Pinhole spends less CPU. Unlike images/s this barely depends on other load.
    public func pinholeCPUAdvantage(_ tool: Tool, jobs: Int) -> Double? {
        guard let pinhole = row(tool.reference, jobs: jobs), let other = row(tool, jobs: jobs),
            pinhole.cpuSecondsPerImage > 0
        else { return nil }
        return other.cpuSecondsPerImage / pinhole.cpuSecondsPerImage
    }

    /// Median images/s with the most jobs over that with 1 job.
    public func scaling(_ tool: Tool) -> Double? {
        let counts = rows.filter { $0.tool == tool }.map(\.jobs)
        guard let most = counts.max(), most > 1, let many = row(tool, jobs: most), let one = row(tool, jobs: 1),
            one.imagesPerSecond.median > 0
        else { return nil }
        return many.imagesPerSecond.median / one.imagesPerSecond.median
    }

    private struct Figures: Encodable {
        var name: String
        var jobs: Int
        var imagesPerSecond: Double
        var imagesPerSecondSamples: [Double]
        var cpuSecondsPerImage: Double
        var peakRSSBytes: Int
        var pinholeSpeedup: Double?
        /// The tool's CPU seconds per image over Pinhole's (see ``pinholeCPUAdvantage(_:jobs:)``).
        var pinholeCPUAdvantage: Double?
    }

    private struct PinholeSummary: Encodable {
        var corpus: String
        var images: Int
        var jpegs: Int
        var size: Int
        var quality: Int
        var runs: Int
        var warmups: Int
        var activeProcessors: Int
        var runsOverAllImages: [Figures]
        var runsOverJPEGs: [Figures]
        var scaling: Double?
        var jpegScaling: Double?
    }

    private enum CodingKeys: String, CodingKey { case pinhole, tools }

    private func figures(_ row: Row) -> Figures {
        Figures(
            name: row.tool.rawValue, jobs: row.jobs, imagesPerSecond: row.imagesPerSecond.median,
            imagesPerSecondSamples: row.imagesPerSecond.values, cpuSecondsPerImage: row.cpuSecondsPerImage,
            peakRSSBytes: row.peakRSSBytes,
            pinholeSpeedup: row.tool == .pinhole || row.tool == .pinholeJPEG
                ? nil : pinholeSpeedup(row.tool, jobs: row.jobs),
            pinholeCPUAdvantage: row.tool == .pinhole || row.tool == .pinholeJPEG
                ? nil : pinholeCPUAdvantage(row.tool, jobs: row.jobs))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let summary = PinholeSummary(
            corpus: corpus, images: images, jpegs: jpegs, size: size, quality: quality, runs: runs, warmups: warmups,
            activeProcessors: activeProcessors,
            runsOverAllImages: rows.filter { $0.tool == .pinhole }.map(figures),
            runsOverJPEGs: rows.filter { $0.tool == .pinholeJPEG }.map(figures),
            scaling: scaling(.pinhole), jpegScaling: scaling(.pinholeJPEG))
        try container.encode(summary, forKey: .pinhole)
        let tools = rows.filter { $0.tool != .pinhole && $0.tool != .pinholeJPEG }.map(figures)
        try container.encode(tools, forKey: .tools)
    }
}
