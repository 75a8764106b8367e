import Foundation
import Pinhole
import PinholeVips

/// Peak memory of a batch run against the length of its input list: `pinhole thumbnail --input-list -` fed
/// `inputs` lines on stdin (through a pipe, written as the child reads), against the same command fed
/// `referenceInputs` lines, in the same session. Flat memory means the difference stays small however long
/// the list (the bound: +30 MB at 100,000 inputs over 100).
///
/// The inputs are a few real photos (the first JPEGs of the corpus, shrunk once to ``Configuration/photoSide``
/// pixels so 100,000 thumbnails take minutes, not hours) repeated under different names through symbolic
/// links, so every line is a distinct file to the pipeline (no cache hit, no coalescing). Each run writes its
/// thumbnails into a fresh directory, removed afterwards. A benchmark, not a test: it prints figures; it only
/// checks that every thumbnail was made.
public struct BatchMemoryBenchmark: Sendable {
    /// What to run.
    public struct Configuration: Sendable {
        /// The `pinhole` executable to measure (normally the running one).
        public var pinholeExecutable: String
        /// Where the source photos come from (JPEGs found by content).
        public var corpus: String
        /// Lines in the long list; 100,000 by default.
        public var inputs = 100_000
        /// Lines in the reference list; 100 by default.
        public var referenceInputs = 100
        /// Distinct photos the links point to; 4 by default.
        public var photoCount = 4
        /// Longest side of the source photos, in pixels; 640 by default.
        public var photoSide = 640
        /// `--size` of the runs; 160 by default.
        public var size = 160
        /// `--jobs` of the runs; the active processor count by default.
        public var jobs = ProcessInfo.processInfo.activeProcessorCount
        /// A scratch directory (photos, links, outputs), removed at the end; a fresh one under the system's
        /// temporary directory by default.
        public var workDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("pinhole-bench-batch-\(UUID().uuidString)").path

        public init(pinholeExecutable: String, corpus: String) {
            self.pinholeExecutable = pinholeExecutable
            self.corpus = corpus
        }
    }

    /// One run of the child.
    public struct Run: Codable, Sendable {
        /// Lines fed on stdin.
        public var inputs: Int
        /// Thumbnails the child reported written.
        public var succeeded: Int
        /// The child's peak RSS in bytes (`VmHWM`, from its `--json` summary; see
        /// ``ProcessStats/peakResidentBytes()``).
        public var peakRSSBytes: Int
        /// The child's wall time, in seconds.
        public var seconds: Double
        /// Thumbnails per second.
        public var imagesPerSecond: Double
    }

    /// The figures.
    public struct Result: Codable, Sendable {
        public var reference: Run
        public var long: Run
        /// `long.peakRSSBytes - reference.peakRSSBytes`.
        public var differenceBytes: Int
        /// The 1-minute load average before and after.
        public var loadAverage: [Double]
        public var size: Int
        public var jobs: Int
        public var photoSide: Int

        /// The figures for people.
        public var text: String {
            let mb = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1e6) }
            let line = { (run: Run) in
                String(
                    format: "%7d inputs: peak RSS %@, %d written in %.1f s (%.1f images/s)", run.inputs,
                    mb(run.peakRSSBytes), run.succeeded, run.seconds, run.imagesPerSecond)
            }
            return [
                "pinhole thumbnail --input-list - (stdin), \(size) px, \(jobs) jobs, \(photoSide)-px photos via links",
                line(reference), line(long),
                String(
                    format: "difference: %@%@ (bound: +30 MB); load average %.1f → %.1f",
                    differenceBytes >= 0 ? "+" : "", mb(differenceBytes), loadAverage.first ?? 0,
                    loadAverage.last ?? 0),
            ].joined(separator: "\n")
        }
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Makes the photos and links, runs the reference and then the long list, and removes the scratch directory.
    ///
    /// - Throws: ``PinholeError`` when the corpus has no JPEG, or a run fails or writes fewer thumbnails than
    ///   it was given inputs.
    public func run(log: @Sendable (String) -> Void = { _ in }) async throws -> Result {
        let load = Self.loadAverage()
        let work = configuration.workDirectory
        defer { try? FileManager.default.removeItem(atPath: work) }
        let photos = try await makePhotos(in: work + "/photos")
        log("made \(photos.count) photos of \(configuration.photoSide) px; linking \(configuration.inputs) names")
        let links = try await makeLinks(
            to: photos, count: max(configuration.inputs, configuration.referenceInputs),
            in: work + "/links")
        let reference = try await measure(Array(links.prefix(configuration.referenceInputs)), in: work + "/out-ref")
        log("reference: \(reference.inputs) inputs, peak RSS \(reference.peakRSSBytes) bytes")
        let long = try await measure(Array(links.prefix(configuration.inputs)), in: work + "/out-long")
        return Result(
            reference: reference, long: long, differenceBytes: long.peakRSSBytes - reference.peakRSSBytes,
            loadAverage: [load, Self.loadAverage()], size: configuration.size,
            jobs: configuration.jobs, photoSide: configuration.photoSide)
    }

    /// The 1-minute load average (`/proc/loadavg`); 0 if unknown. Blocking but instant (a procfs read).
    private static func loadAverage() -> Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { Double($0) } ?? 0
    }

    /// The first ``Configuration/photoCount`` JPEGs of the corpus, shrunk to ``Configuration/photoSide``.
    private func makePhotos(in directory: String) async throws -> [String] {
        let corpus = configuration.corpus
        let sources = try await WorkerThreadPool.io.run {
            try ThumbnailBenchmark.listImages(corpus).filter { path in
                guard let head = FileHandle(forReadingAtPath: path).flatMap({ try? $0.read(upToCount: 16) })
                else { return false }
                return ImageFormat.sniff(head) == .image(.jpeg)
            }
        }.prefix(configuration.photoCount)
        guard !sources.isEmpty else { throw PinholeError(.fileNotFound, "no JPEG in \(corpus)") }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var photos: [String] = []
        for (index, source) in sources.enumerated() {
            let data = try await WorkerThreadPool.io.run { try Data(contentsOf: URL(fileURLWithPath: source)) }
            let options = DecodingOptions(thumbnail: ThumbnailOptions(maxPixelSize: configuration.photoSide))
            let image = try await VipsDecoder().decode(data, options: options).image
            let jpeg = try await VipsEncoder().encode(image, options: EncodingOptions(format: .jpeg, quality: 85))
            let path = directory + "/photo-\(index).jpg"
            try await WorkerThreadPool.io.run { try jpeg.write(to: URL(fileURLWithPath: path)) }
            photos.append(path)
        }
        return photos
    }

    /// `count` symbolic links `NNNNNN.jpg` to the photos in turn.
    private func makeLinks(to photos: [String], count: Int, in directory: String) async throws -> [String] {
        try await WorkerThreadPool.io.run {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return try (0..<count).map { index in
                let link = directory + String(format: "/%06d.jpg", index)
                let photo = photos[index % photos.count]
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: photo)
                return link
            }
        }
    }

    /// Runs the child over `inputs` fed on stdin, and removes its outputs.
    private func measure(_ inputs: [String], in output: String) async throws -> Run {
        let arguments = [
            "thumbnail", "--input-list", "-", "--out", output, "--size", "\(configuration.size)",
            "--jobs", "\(configuration.jobs)", "--json",
        ]
        let result = try await ChildProcess.run(
            configuration.pinholeExecutable, arguments, capturesOutput: true,
            standardInputLines: inputs)
        defer { try? FileManager.default.removeItem(atPath: output) }
        struct Summary: Decodable {
            var succeeded: Int
            var peakRSSBytes: Int
        }
        guard result.status == 0,
            let summary = try? JSONDecoder().decode(Summary.self, from: Data(result.standardOutput.utf8)),
            summary.succeeded == inputs.count
        else {
            throw PinholeError(
                .decodingFailed,
                "the run over \(inputs.count) inputs failed (status \(result.status)): "
                    + result.standardOutput.prefix(400))
        }
        return Run(
            inputs: inputs.count, succeeded: summary.succeeded, peakRSSBytes: summary.peakRSSBytes,
            seconds: result.seconds, imagesPerSecond: Double(summary.succeeded) / max(result.seconds, 1e-9))
    }
}
