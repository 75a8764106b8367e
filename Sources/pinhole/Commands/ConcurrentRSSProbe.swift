import Foundation
import Pinhole
import PinholeBench
import PinholeShared
import PinholeVips

/// `pinhole debug rss-many FILE… [--size PIXELS] [--parallel N]`: thumbnails every file at once through the real
/// pipeline and reports the process's peak RSS and glibc's arena count as one JSON line.
///
/// `--parallel` is the pipeline's processing limit and the decoder's thread count (all files by default: the
/// worst case, every decode in flight together). The memory cache is off, so the figure is the decodes'
/// working memory plus the process's baseline. Exit status 1 when any file failed.
enum ConcurrentRSSProbe {
    struct Report: Codable {
        var files: Int
        var parallel: Int
        var size: Int
        var succeeded = 0
        var failures: [String] = []
        var baselineResidentBytes = 0
        var peakResidentBytes = 0
        /// glibc's arenas at the end (the main one included): at most the core count under the footprint tuning.
        var arenaCount = 0
    }

    static func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let files = DebugCommand.positionals(arguments)
        guard !files.isEmpty else { throw UsageError("no files") }
        let size = try DebugCommand.integer("--size", in: arguments, default: 360)
        let parallel = try DebugCommand.integer("--parallel", in: arguments, default: files.count)
        guard parallel >= 1 else { throw UsageError("--parallel must be at least 1") }
        var report = Report(files: files.count, parallel: parallel, size: size)
        _ = Vips.version  // libvips initialised before the baseline
        report.baselineResidentBytes = ProcessStats.residentBytes()

        var configuration = ImagePipeline.Configuration(
            decoder: VipsDecoder(pool: WorkerThreadPool(threadCount: parallel, name: "rss-many")))
        configuration.processingConcurrencyLimit = parallel
        configuration.memoryCache = nil
        let pipeline = ImagePipeline(configuration: configuration)
        let outcomes = await withTaskGroup(of: String?.self) { group in
            for file in files {
                group.addTask {
                    let request = ImageRequest(
                        url: URL(fileURLWithPath: file), thumbnail: ThumbnailOptions(maxPixelSize: size))
                    do {
                        let response = try await pipeline.image(for: request)
                        blackHole(response.image.pixels.count)
                        return nil
                    } catch {
                        return "\(file): \(error)"
                    }
                }
            }
            var failures: [String?] = []
            for await outcome in group { failures.append(outcome) }
            return failures
        }
        report.failures = outcomes.compactMap { $0 }
        report.succeeded = outcomes.count - report.failures.count
        report.peakResidentBytes = ProcessStats.peakResidentBytes()
        report.arenaCount = MallocTuning.figures.arenaCount
        DebugCommand.printJSON(report)
        return report.failures.isEmpty ? 0 : 1
    }
}
