import Foundation
import Pinhole
import PinholeShared
import PinholeVips

/// `pinhole bench sizes`: several thumbnails of one file made two ways, per file: (a) one shrink-on-load decode
/// per size from the bytes, (b) one decode at the largest size and resizes of it; then what
/// ``ImagePipeline/images(for:sizes:)`` did (its decodes and resizes, which run concurrently) and what it took.
///
/// Each way runs in this process, one after the other, `runs` times after one warm-up; the figures are medians
/// of wall time and of the process's CPU time (all threads) per set of sizes.
public struct SizesBenchmark: Sendable {
    /// One file's figures, in seconds per set of sizes.
    public struct Row: Sendable, Codable, Hashable {
        public var file: String
        public var format: String
        public var decodeEachSeconds: Samples = Samples()
        public var decodeEachCPUSeconds: Samples = Samples()
        public var decodeOnceSeconds: Samples = Samples()
        public var decodeOnceCPUSeconds: Samples = Samples()
        public var pipelineSeconds: Samples = Samples()
        public var pipelineCPUSeconds: Samples = Samples()
        /// What `images(for:sizes:)` did: `3 decodes`, `1 decode + 2 resizes`.
        public var chosen: String = ""
    }

    public var files: [String]
    public var sizes: [Int]
    public var runs: Int

    public init(files: [String], sizes: [Int] = [64, 320, 1080], runs: Int = 5) {
        self.files = files
        self.sizes = sizes
        self.runs = runs
    }

    /// Measures every file; `progress` gets a line per file.
    public func run(progress: (String) -> Void = { _ in }) async throws -> [Row] {
        let decoder = VipsDecoder()
        let thumbnails = sizes.map { ThumbnailOptions(maxPixelSize: $0) }
        var rows: [Row] = []
        for file in files {
            let data = try await WorkerThreadPool.io.run { try Data(contentsOf: URL(fileURLWithPath: file)) }
            guard case .image(let format) = ImageFormat.sniff(data) else {
                throw PinholeError(.notAnImage, "\(file) is not an image")
            }
            var row = Row(file: (file as NSString).lastPathComponent, format: format.name)
            for round in 0...runs {
                let each = try await Self.measure {
                    for thumbnail in thumbnails {
                        _ = try await decoder.decode(data, options: DecodingOptions(thumbnail: thumbnail))
                    }
                }
                let once = try await Self.measure {
                    let ordered = thumbnails.sorted { $0.size.width > $1.size.width }
                    let base = try await decoder.decode(data, options: DecodingOptions(thumbnail: ordered[0]))
                    for thumbnail in ordered.dropFirst() {
                        let layout = thumbnail.layout(width: base.info.width, height: base.info.height)
                        _ = try await WorkerThreadPool.cpu.run { try decoder.resize(base.image, to: layout) }
                    }
                }
                var configuration = ImagePipeline.Configuration(decoder: decoder)
                configuration.memoryCache = nil
                let pipeline = ImagePipeline(configuration: configuration)
                let pipelined = try await Self.measure {
                    _ = try await pipeline.images(for: ImageRequest(id: file, data: data), sizes: thumbnails)
                }
                let metrics = pipeline.metrics
                row.chosen =
                    metrics.memoryResizes == 0
                    ? "\(metrics.decodes) decodes" : "\(metrics.decodes) decode + \(metrics.memoryResizes) resizes"
                guard round > 0 else { continue }  // the warm-up
                row.decodeEachSeconds.append(each.wall)
                row.decodeEachCPUSeconds.append(each.cpu)
                row.decodeOnceSeconds.append(once.wall)
                row.decodeOnceCPUSeconds.append(once.cpu)
                row.pipelineSeconds.append(pipelined.wall)
                row.pipelineCPUSeconds.append(pipelined.cpu)
            }
            progress("\(row.file): done")
            rows.append(row)
        }
        return rows
    }

    /// Wall and process CPU seconds of `body`.
    static func measure(_ body: () async throws -> Void) async throws -> (wall: Double, cpu: Double) {
        let cpu = ProcessStats.cpuSeconds()
        let start = ContinuousClock.now
        try await body()
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        return (elapsed, ProcessStats.cpuSeconds() - cpu)
    }

    /// The rows as a table: milliseconds of wall (and CPU) time per set of sizes, by way.
    public static func text(_ rows: [Row], sizes: [Int]) -> String {
        let sizeList = sizes.map(String.init).joined(separator: ",")
        var lines = [
            "sizes \(sizeList) px, ms per set (wall / CPU), medians",
            "file                          format  decode-each      decode-once      images(for:sizes:)  chose",
        ]
        func cell(_ wall: Samples, _ cpu: Samples) -> String {
            String(format: "%6.1f / %6.1f", wall.median * 1000, cpu.median * 1000)
        }
        for row in rows {
            let name = row.file.padding(toLength: 29, withPad: " ", startingAt: 0)
            let format = row.format.padding(toLength: 7, withPad: " ", startingAt: 0)
            lines.append(
                "\(name) \(format) \(cell(row.decodeEachSeconds, row.decodeEachCPUSeconds))  "
                    + "\(cell(row.decodeOnceSeconds, row.decodeOnceCPUSeconds))  "
                    + "\(cell(row.pipelineSeconds, row.pipelineCPUSeconds))     \(row.chosen)")
        }
        return lines.joined(separator: "\n")
    }
}
