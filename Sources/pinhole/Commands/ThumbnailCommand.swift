import Foundation
import Pinhole
import PinholeBench
import PinholeGallery
import PinholeShared

/// `pinhole thumbnail`: loads every input through an ``ImagePipeline``, encodes its thumbnail, writes it, and
/// reports what happened.
///
/// The codecs are injected (``Codecs``), so the command's logic runs with any ``ImageDecoding`` and
/// ``ImageEncoding``; the executable passes the libvips ones. At most ``Configuration/jobs`` images are in
/// flight at any moment (a task group refilled as tasks finish). Inputs are files, http(s) URLs and the items of
/// a JSON Feed; the pipeline reads files on ``WorkerThreadPool/io``, downloads each distinct URL once
/// (coalescing, memory cache, optional disk cache) and decodes where the codecs run (their own pool).
///
/// One input's failure never stops the others: it becomes a ``ThumbnailReport/Failure``.
struct ThumbnailCommand: Sendable {
    /// The decoder, encoder and contact-sheet maker the command uses.
    struct Codecs: Sendable {
        var decoder: any ImageDecoding
        var encoder: any ImageEncoding
        /// Lays `images` out in a grid of square cells of `cellSize` pixels.
        var makeContactSheet: @Sendable (_ images: [PixelImage], _ cellSize: Int) async throws -> PixelImage
        /// The ThumbHash of a thumbnail, for `--json` and `--jsonl`; `nil` for none.
        var makeThumbHash: (@Sendable (PixelImage) async throws -> ThumbHash)? = nil
    }

    /// Progress after each finished input: (finished, failed, total).
    typealias Progress = (_ finished: Int, _ failed: Int, _ total: Int) -> Void

    let configuration: Configuration
    let codecs: Codecs
    let ioPool: WorkerThreadPool
    /// `--animated`: the frames all jobs hold at once while writing animations (one budget a run).
    let animationWrites = AnimationWriteBudget()

    init(configuration: Configuration, codecs: Codecs, ioPool: WorkerThreadPool = .io) {
        self.configuration = configuration
        self.codecs = codecs
        self.ioPool = ioPool
    }

    /// What became of one input.
    enum Outcome: Sendable {
        case written(ThumbnailReport.Output, image: PixelImage?)
        case failed(ThumbnailReport.Failure)
    }

    /// Runs the command over all inputs.
    ///
    /// - Parameter progress: called on the calling task after each input finishes (for a progress bar).
    /// - Returns: the report; its ``ThumbnailReport/exitStatus`` is the process's.
    func run(progress: Progress? = nil) async -> ThumbnailReport {
        let clock = ContinuousClock()
        let start = clock.now
        var report = emptyReport()
        var inputs: [InputFile]
        // Every argument is accounted for: one that names no file or URL is an error, never dropped.
        let arguments = configuration.inputs.map(InputArgument.init)
        for (argument, parsed) in zip(configuration.inputs, arguments) {
            guard case .invalid(let reason) = parsed else { continue }
            report.errors.append(
                ThumbnailReport.Failure(input: argument, kind: InputArgument.invalidKind, message: reason))
        }
        do {
            try await ioPool.run { [configuration] in try FileAccess.createDirectory(configuration.outputDirectory) }
            let local = arguments.compactMap { argument -> String? in
                if case .path(let path) = argument { path } else { nil }
            }
            inputs = try await InputCollector(excluding: excludedPaths, pool: ioPool).collect(local)
            inputs += arguments.compactMap { argument -> InputFile? in
                if case .remote(let url) = argument { InputFile(url: url) } else { nil }
            }
        } catch {
            report.errors.append(Self.failure(configuration.outputDirectory, error))
            report.failed = report.errors.count
            return report
        }
        if let feed = configuration.feed {
            do {
                inputs += try await feedInputs(feed)
            } catch {
                report.errors.append(Self.failure(feed, error))
            }
        }
        let pipeline = makePipeline()
        let outputNames = outputNamesBySize(for: inputs.map(\.relativePath))
        let outcomes = await process(inputs, outputNames: outputNames, pipeline: pipeline, progress: progress)

        var images: [PixelImage] = []
        for outcome in outcomes {
            switch outcome {
            case .written(let output, let image):
                report.outputs.append(output)
                report.bytesOut += output.bytes
                if let image { images.append(image) }
            case .failed(let failure):
                report.errors.append(failure)
            }
        }
        report.succeeded = report.outputs.count
        report.failed = report.errors.count
        let metrics = pipeline.metrics
        report.bytesIn = metrics.bytesReceived
        report.downloads = metrics.downloadsStarted
        report.coalesced = metrics.coalescedJoins
        report.memoryHits = metrics.memoryHits
        report.diskHits = metrics.diskHits
        report.decodes = metrics.decodes
        report.thumbnailDiskHits = metrics.thumbnailDiskHits
        report.failureHits = metrics.failureHits
        if let sheet = configuration.contactSheet {
            do {
                report.contactSheet = try await writeContactSheet(images, to: sheet)
            } catch {
                report.errors.append(Self.failure(sheet, error))
            }
        }
        let seconds = (clock.now - start) / .seconds(1)
        report.seconds = seconds
        report.imagesPerSecond = seconds > 0 ? Double(report.succeeded) / seconds : 0
        report.peakRSSBytes = ProcessStats.peakResidentBytes()
        report.pageFaults = ProcessStats.minorPageFaults()
        return report
    }

    /// Processes `inputs` with at most ``Configuration/jobs`` + ``Configuration/readAhead`` in flight (decodes
    /// stay at ``Configuration/jobs``: the pipeline's processing limit), started largest file first
    /// (``LargestFirstOrder``: the run does not end on one large image while the other jobs idle); outcomes come
    /// back in input order, one per size of each input (`outputNames` is `[size][input]`).
    private func process(
        _ inputs: [InputFile], outputNames: [[String]], pipeline: ImagePipeline, progress: Progress?
    ) async -> [Outcome] {
        var outcomes = [[Outcome]?](repeating: nil, count: inputs.count)
        var finished = 0
        var failed = 0
        let startOrder = LargestFirstOrder.indices(byteCounts: inputs.map(\.byteCount))
        await withTaskGroup(of: (Int, [Outcome]).self) { group in
            var next = 0
            func startNext() {
                guard next < inputs.count else { return }
                let index = startOrder[next]
                let directory = configuration.outputDirectory
                let outputs = outputNames.map { (directory.hasSuffix("/") ? directory : directory + "/") + $0[index] }
                group.addTask { [self] in
                    guard outputs.count > 1 else {
                        return (index, [await thumbnail(inputs[index], to: outputs[0], pipeline: pipeline)])
                    }
                    return (index, await thumbnails(inputs[index], to: outputs, pipeline: pipeline))
                }
                next += 1
            }
            for _ in 0..<min(configuration.jobs + configuration.readAhead, inputs.count) { startNext() }
            for await (index, outcome) in group {
                outcomes[index] = outcome
                finished += 1
                if outcome.contains(where: { if case .failed = $0 { true } else { false } }) { failed += 1 }
                progress?(finished, failed, inputs.count)
                startNext()
            }
        }
        return outcomes.compactMap { $0 }.flatMap { $0 }
    }

    /// Loads (through the pipeline), encodes and writes one input.
    func thumbnail(_ input: InputFile, to output: String, pipeline: ImagePipeline) async -> Outcome {
        let request = configuration.request.request(for: input.source, size: configuration.size)
        // A task, so that a failure has its metrics too (`--jsonl`); cancelling this caller cancels it.
        let task = pipeline.imageTask(for: request)
        do {
            let decoded = try await withTaskCancellationHandler {
                try await task.response
            } onCancel: {
                task.cancel()
            }
            try Task.checkCancellation()
            let encoding = EncodingOptions(format: configuration.format, quality: configuration.quality)
            let (encoded, frames) = try await encode(decoded, options: encoding)
            try await ioPool.run { try FileAccess.write(encoded, to: output) }
            let reportsHash = configuration.json || configuration.jsonLines
            let hash = reportsHash ? try await codecs.makeThumbHash?(decoded.image) : nil
            let written = ThumbnailReport.Output(
                input: input.path, output: output, width: decoded.image.width,
                height: decoded.image.height, bytes: encoded.count, frames: frames, thumbhash: hash?.base64,
                metrics: decoded.metrics.map(ThumbnailReport.TaskMetrics.init))
            return .written(written, image: configuration.contactSheet == nil ? nil : decoded.image)
        } catch {
            var failure = Self.failure(input.path, error)
            failure.metrics = task.metrics.map(ThumbnailReport.TaskMetrics.init)
            return .failed(failure)
        }
    }

    private func writeContactSheet(_ images: [PixelImage], to path: String) async throws
        -> ThumbnailReport.ContactSheet
    {
        guard !images.isEmpty else { throw PinholeError(.invalidRequest, "no thumbnails to put on a contact sheet") }
        let format = Configuration.contactSheetFormat(for: path) ?? .jpeg
        let sheet = try await codecs.makeContactSheet(images, configuration.size)
        let data = try await codecs.encoder.encode(sheet, options: EncodingOptions(format: format, quality: 85))
        try await ioPool.run { try FileAccess.write(data, to: path) }
        return ThumbnailReport.ContactSheet(output: path, width: sheet.width, height: sheet.height, bytes: data.count)
    }

    /// Paths never taken as inputs: the output directory and the contact sheet.
    private var excludedPaths: [String] {
        [configuration.outputDirectory] + (configuration.contactSheet.map { [$0] } ?? [])
    }

    private func emptyReport() -> ThumbnailReport {
        ThumbnailReport(
            succeeded: 0, failed: 0, seconds: 0, imagesPerSecond: 0, peakRSSBytes: 0, bytesIn: 0, bytesOut: 0,
            jobs: configuration.jobs, size: configuration.size, format: configuration.format.name,
            outputDirectory: configuration.outputDirectory, outputs: [], errors: [], contactSheet: nil)
    }

    static func failure(_ input: String, _ error: any Error) -> ThumbnailReport.Failure {
        switch error {
        case let error as PinholeError:
            ThumbnailReport.Failure(input: input, kind: error.code.kind, message: error.message)
        case let error as FeedError:
            ThumbnailReport.Failure(input: input, kind: error.kind.rawValue, message: error.message)
        case is CancellationError:
            ThumbnailReport.Failure(input: input, kind: "cancelled", message: "cancelled")
        default:
            ThumbnailReport.Failure(input: input, kind: "unknown", message: String(describing: error))
        }
    }
}
